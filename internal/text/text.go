// Package text holds the helpers that turn data into text meant for people:
// text from a server made safe to show on a terminal, counts, sizes, ages
// and digests written the way a person reads them.
package text

import (
	"fmt"
	"strings"
)

// Clean makes one line of text from someone else (a title, a name) safe to
// print on a terminal: control characters, which could move the cursor or
// change the terminal's settings, are shown in caret notation (ESC as ^[),
// and line breaks become spaces.
func Clean(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f:
			b.WriteByte('^')
			b.WriteRune(r ^ 0x40)
		case r >= 0x80 && r < 0xa0:
			b.WriteString("^?")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 }

// ErrorText is an error as one line for the status bar: its first line,
// with control characters made visible.
func ErrorText(err error) string {
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return OneLine(msg)
}

// OneLine makes text from the service safe to draw on one line: newlines
// and tabs become spaces and other control characters are shown in caret
// notation (^[), so a title cannot move the cursor or restyle the screen.
func OneLine(s string) string {
	if !hasControl(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f:
			b.WriteByte('^')
			b.WriteRune(r ^ 0x40)
		case r >= 0x80 && r < 0xa0:
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func hasControl(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return true
		}
	}
	return false
}

// LogLine makes a line of a CI log safe to draw: colour sequences (SGR,
// ESC [ ... m) are kept, tabs expanded, other control characters shown in
// caret notation.
func LogLine(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	col := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == 0x1b && i+1 < len(s) && s[i+1] == '[':
			j := i + 2
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';' || s[j] == ':') {
				j++
			}
			if j < len(s) && s[j] == 'm' {
				b.WriteString(s[i : j+1])
				i = j
				continue
			}
			b.WriteString("^[")
			col += 2
		case c == '\t':
			n := 8 - col%8
			b.WriteString(strings.Repeat(" ", n))
			col += n
		case c == '\r':
			// A progress line redrawn with \r: keep what follows.
		case c < 0x20 || c == 0x7f:
			b.WriteByte('^')
			b.WriteByte(c ^ 0x40)
			col += 2
		default:
			b.WriteByte(c)
			col++
		}
	}
	return b.String()
}

// Lines splits rendered text into lines, without the empty line after a
// final newline.
func Lines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
