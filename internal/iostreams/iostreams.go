// Package iostreams owns forge's standard streams: which of them are
// terminals, whether colour is wanted, how wide the terminal is, and whether
// the user can be asked a question.
package iostreams

import (
	"bytes"
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/term"
)

// IOStreams is the set of streams a command reads and writes. Data goes to
// Out, messages and progress to ErrOut.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	inTTY, outTTY, errTTY bool
	colorEnabled          bool
	width                 int // 0: ask the terminal when needed
	getenv                func(string) string
}

// System returns the process's streams, with terminal detection done once.
//
// FORGE_FORCE_TTY makes stdout count as a terminal (its value, when a number,
// is the width); tests and screen recordings use it. It never makes stdin a
// terminal, so it never enables prompts.
func System() *IOStreams {
	s := &IOStreams{
		In:     os.Stdin,
		Out:    os.Stdout,
		ErrOut: os.Stderr,
		inTTY:  isTerminal(os.Stdin),
		outTTY: isTerminal(os.Stdout),
		errTTY: isTerminal(os.Stderr),
		getenv: os.Getenv,
	}
	if v := os.Getenv("FORGE_FORCE_TTY"); v != "" && v != "0" && v != "false" {
		s.outTTY = true
		if n, err := strconv.Atoi(v); err == nil && n > 1 {
			s.width = n
		}
	}
	s.colorEnabled = colorWanted(s.outTTY, os.Getenv)
	return s
}

// Test returns streams backed by buffers, none of them a terminal.
func Test() (s *IOStreams, in, out, errOut *bytes.Buffer) {
	in, out, errOut = &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	s = &IOStreams{In: in, Out: out, ErrOut: errOut, width: 80, getenv: func(string) string { return "" }}
	return s, in, out, errOut
}

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// colorWanted applies, in order: NO_COLOR (any value) and TERM=dumb turn
// colour off; CLICOLOR_FORCE (not "0") turns it on even when piped;
// CLICOLOR=0 turns it off; otherwise colour follows whether stdout is a
// terminal.
func colorWanted(outTTY bool, getenv func(string) string) bool {
	if getenv("NO_COLOR") != "" || getenv("TERM") == "dumb" {
		return false
	}
	if v := getenv("CLICOLOR_FORCE"); v != "" && v != "0" {
		return true
	}
	if getenv("CLICOLOR") == "0" {
		return false
	}
	return outTTY
}

// IsStdinTTY reports whether stdin is a terminal.
func (s *IOStreams) IsStdinTTY() bool { return s.inTTY }

// IsStdoutTTY reports whether stdout is a terminal: tables with headers,
// relative times and colour instead of tab-separated rows.
func (s *IOStreams) IsStdoutTTY() bool { return s.outTTY }

// IsStderrTTY reports whether stderr is a terminal: progress bars and
// spinners go there only when it is.
func (s *IOStreams) IsStderrTTY() bool { return s.errTTY }

// CanPrompt reports whether forge may ask the user a question: stdin and
// stdout are both terminals. Commands that would prompt otherwise fail with
// a usage error naming the flag to pass.
func (s *IOStreams) CanPrompt() bool { return s.inTTY && s.outTTY }

// ColorEnabled reports whether stdout output may carry ANSI colour.
func (s *IOStreams) ColorEnabled() bool { return s.colorEnabled }

// SetStdinTTY, SetStdoutTTY, SetStderrTTY and SetColorEnabled let tests
// pose as a terminal.
func (s *IOStreams) SetStdinTTY(v bool)       { s.inTTY = v }
func (s *IOStreams) SetStdoutTTY(v bool)      { s.outTTY = v }
func (s *IOStreams) SetStderrTTY(v bool)      { s.errTTY = v }
func (s *IOStreams) SetColorEnabled(v bool)   { s.colorEnabled = v }
func (s *IOStreams) SetTerminalWidth(w int)   { s.width = w }
func (s *IOStreams) Getenv(key string) string { return s.getenv(key) }

// TerminalWidth is the width of the terminal on stdout, else $COLUMNS,
// else 80.
func (s *IOStreams) TerminalWidth() int {
	if s.width > 0 {
		return s.width
	}
	if f, ok := s.Out.(*os.File); ok && s.outTTY {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			s.width = w
			return w
		}
	}
	if n, err := strconv.Atoi(strings.TrimSpace(s.getenv("COLUMNS"))); err == nil && n > 0 {
		s.width = n
		return n
	}
	s.width = 80
	return s.width
}

// ColorScheme returns styling helpers that are no-ops when colour is off.
func (s *IOStreams) ColorScheme() *ColorScheme {
	return &ColorScheme{enabled: s.colorEnabled, tty: s.outTTY}
}

// ErrColorScheme styles text bound for stderr, which may be a terminal
// while stdout is piped.
func (s *IOStreams) ErrColorScheme() *ColorScheme {
	return &ColorScheme{enabled: s.errTTY && colorWanted(true, s.getenv), tty: s.errTTY}
}
