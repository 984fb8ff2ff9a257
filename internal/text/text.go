// Package text holds the helpers that turn data into text meant for people:
// text from a server made safe to show on a terminal (Sanitize, OneLine,
// LogLine, and Writer and LogWriter for streams: the one place that decides
// how a control character is shown), and counts, sizes, ages and digests
// written the way a person reads them. ForModel is its counterpart for text
// handed to a language model (`forge mcp serve`), which is attacked with
// what a reader does not see rather than with escapes.
package text

import (
	"strings"
	"unicode/utf8"
)

// Sanitize makes text from a server safe to print on a terminal, keeping
// its lines and tabs: no byte of it can start an escape sequence (retitle
// the window, clear the screen, write the clipboard) or reorder what is
// shown. Every control is shown instead of sent, in one notation:
//
//	C0 controls and DEL    caret notation, as cat -v: ESC is ^[, BEL ^G, DEL ^?
//	                       (newline and tab are kept, and CR before a newline)
//	C1 controls            <U+009B> (U+0080 to U+009F)
//	bidi controls          <U+202E> (U+202A to U+202E, U+2066 to U+2069)
//	bytes not UTF-8        <0x9B>
//
// Only what goes to a terminal is sanitized: piped output stays the data
// the server sent.
func Sanitize(s string) string { return clean(s, false) }

// OneLine is Sanitize for text drawn on one line (a title, a name, a table
// cell): newlines, carriage returns and tabs become spaces.
func OneLine(s string) string { return clean(s, true) }

// OnTerminal is a one-line value from the server (a URL, a name) as a
// command prints it on stdout: OneLine when stdout is a terminal (tty), the
// exact value when it is piped, for scripts.
func OnTerminal(tty bool, s string) string {
	if tty {
		return OneLine(s)
	}
	return s
}

// ErrorText is an error as one line for the status bar: its first line,
// sanitized.
func ErrorText(err error) string {
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return OneLine(msg)
}

func clean(s string, oneLine bool) string {
	if isClean(s, oneLine) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c == '\n' || c == '\t' || c == '\r' && oneLine:
				if oneLine {
					c = ' '
				}
				b.WriteByte(c)
			case c == '\r' && i < len(s) && s[i] == '\n':
				b.WriteByte(c) // CRLF ends a line as LF does
			case c < 0x20 || c == 0x7f:
				writeControl(&b, rune(c))
			default:
				b.WriteByte(c)
			}
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			writeCode(&b, "<0x", uint32(c), 2)
		case isControl(r):
			writeControl(&b, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// isClean reports whether s can go to a terminal as it is.
func isClean(s string, oneLine bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				if oneLine || c != '\n' && c != '\t' {
					return false
				}
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || isControl(r) {
			return false
		}
		i += n
	}
	return true
}

// isControl reports whether r is a control character other than ASCII
// whitespace that a terminal or a bidi algorithm would act on.
func isControl(r rune) bool {
	return r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f ||
		r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// writeControl shows the control r in the notation Sanitize documents.
func writeControl(b *strings.Builder, r rune) {
	switch {
	case r < 0x20:
		b.WriteByte('^')
		b.WriteByte(byte(r) + 0x40)
	case r == 0x7f:
		b.WriteString("^?")
	default:
		writeCode(b, "<U+", uint32(r), 4)
	}
}

// writeCode writes prefix, v in n upper-case hex digits, and ">" (fmt
// would cost an allocation per control).
func writeCode(b *strings.Builder, prefix string, v uint32, n int) {
	b.WriteString(prefix)
	for i := n - 1; i >= 0; i-- {
		b.WriteByte("0123456789ABCDEF"[v>>(4*i)&0xf])
	}
	b.WriteByte('>')
}

// LogLine makes a line of a CI log safe to draw: colour sequences (SGR,
// ESC [ ... m) are kept, tabs expanded to 8 columns, a carriage return
// dropped (a progress line redrawn keeps what follows), and every other
// control shown as Sanitize shows it.
func LogLine(s string) string {
	if isClean(s, true) {
		return s
	}
	var b strings.Builder
	col := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			if n := sgrLen(s[i:]); n > 0 {
				b.WriteString(s[i : i+n])
				i += n
				continue
			}
		case c == '\t':
			n := 8 - col%8
			b.WriteString("        "[:n])
			col += n
			i++
			continue
		case c == '\r':
			i++
			continue
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		shown := clean(s[i:i+n], true)
		b.WriteString(shown)
		col += utf8.RuneCountInString(shown)
		i += n
	}
	return b.String()
}

// sgrLen is the length of the SGR sequence (ESC [ digits ; : m) that s
// starts with, or 0.
func sgrLen(s string) int {
	if len(s) < 3 || s[0] != 0x1b || s[1] != '[' {
		return 0
	}
	j := 2
	for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';' || s[j] == ':') {
		j++
	}
	if j < len(s) && s[j] == 'm' {
		return j + 1
	}
	return 0
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
