// Package prompt asks the user for input on a terminal. Callers check
// IOStreams.CanPrompt first and otherwise fail with a usage error that
// names the flag to pass.
package prompt

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"strings"

	"github.com/forgehq/forge/internal/iostreams"
	"golang.org/x/term"
)

// Prompter asks questions. Every method returns context.Canceled when ctx
// ends (Ctrl-C), leaving the terminal as it found it.
type Prompter interface {
	Input(ctx context.Context, question, def string) (string, error)
	Password(ctx context.Context, question string) (string, error)
	Confirm(ctx context.Context, question string, def bool) (bool, error)
}

// New returns a Prompter reading from ios.In and writing questions to
// ios.ErrOut, so stdout keeps only data, through ErrPrintf: on a terminal
// a question is one line without escapes, whatever values it holds.
func New(ios *iostreams.IOStreams) Prompter {
	return &terminal{ios: ios, r: bufio.NewReader(ios.In)}
}

type terminal struct {
	ios *iostreams.IOStreams
	r   *bufio.Reader
	// pending is the read a cancelled question left waiting on r: the
	// next question takes its line rather than start a second read of
	// r (two goroutines reading one bufio.Reader at once).
	pending chan lineResult
}

type lineResult struct {
	s   string
	err error
}

func (t *terminal) Input(ctx context.Context, question, def string) (string, error) {
	q := question
	if def != "" {
		q += " (" + def + ")"
	}
	t.ios.ErrPrintf("? %s: ", q)
	line, err := t.readLine(ctx)
	if err != nil {
		return "", err
	}
	if line == "" {
		return def, nil
	}
	return line, nil
}

func (t *terminal) Confirm(ctx context.Context, question string, def bool) (bool, error) {
	hint := "y/N"
	if def {
		hint = "Y/n"
	}
	t.ios.ErrPrintf("? %s [%s]: ", question, hint)
	line, err := t.readLine(ctx)
	if err != nil {
		return false, err
	}
	switch strings.ToLower(line) {
	case "":
		return def, nil
	case "y", "yes":
		return true, nil
	}
	return false, nil
}

// Password reads a line without echo when stdin is a terminal.
func (t *terminal) Password(ctx context.Context, question string) (string, error) {
	t.ios.ErrPrintf("? %s: ", question)
	f, ok := t.ios.In.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return t.readLine(ctx)
	}
	fd := int(f.Fd())
	state, err := term.GetState(fd)
	if err != nil {
		return "", err
	}
	type result struct {
		s   string
		err error
	}
	ch := make(chan result, 1)
	go func() {
		b, err := term.ReadPassword(fd)
		ch <- result{string(b), err}
	}()
	select {
	case r := <-ch:
		t.ios.ErrPrintln()
		return r.s, r.err
	case <-ctx.Done():
		_ = term.Restore(fd, state)
		t.ios.ErrPrintln()
		return "", ctx.Err()
	}
}

// readLine reads one line; Ctrl-C (ctx) abandons the read.
func (t *terminal) readLine(ctx context.Context) (string, error) {
	if t.pending == nil {
		ch := make(chan lineResult, 1)
		go func() {
			s, err := t.r.ReadString('\n')
			ch <- lineResult{s, err}
		}()
		t.pending = ch
	}
	select {
	case r := <-t.pending:
		t.pending = nil
		if r.err != nil && !(errors.Is(r.err, io.EOF) && r.s != "") {
			if errors.Is(r.err, io.EOF) {
				return "", errors.New("no answer: input ended")
			}
			return "", r.err
		}
		return strings.TrimRight(r.s, "\r\n"), nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}
