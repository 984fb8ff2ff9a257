package text

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// unsafeForTerminal says what in out could act on a terminal: any C0
// control but newline and tab (CR only before a newline), DEL, a C1
// control (encoded or as a raw byte), a bidi control, or bytes that are
// not UTF-8. keepSGR allows SGR colour sequences, as LogLine keeps them.
func unsafeForTerminal(out string, oneLine, keepSGR bool) string {
	if !utf8.ValidString(out) {
		return "invalid UTF-8"
	}
	for i := 0; i < len(out); {
		if keepSGR {
			if n := sgrLen(out[i:]); n > 0 {
				i += n
				continue
			}
		}
		r, n := utf8.DecodeRuneInString(out[i:])
		switch {
		case (r == '\n' || r == '\t') && !oneLine:
		case r == '\r' && !oneLine && strings.HasPrefix(out[i+1:], "\n"):
		case isControl(r):
			return "control " + string(r)
		}
		i += n
	}
	return ""
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{
		"", "plain", "\x1b]0;pwned\a \x1b[2J \x1b]52;c;ZXJy\a", "\u009b2J", "\x9b2J",
		"a\r\nb\rc\n\t", "abc\u202egnp", "\u2066x\u2069", "\xe6\x97", "\x1b[31mred\x1b[0m\t|",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if why := unsafeForTerminal(Sanitize(s), false, false); why != "" {
			t.Errorf("Sanitize(%q) = %q: %s", s, Sanitize(s), why)
		}
		if why := unsafeForTerminal(OneLine(s), true, false); why != "" {
			t.Errorf("OneLine(%q) = %q: %s", s, OneLine(s), why)
		}
		if why := unsafeForTerminal(LogLine(s), true, true); why != "" {
			t.Errorf("LogLine(%q) = %q: %s", s, LogLine(s), why)
		}
		if strings.ContainsRune(OneLine(s), '\n') {
			t.Errorf("OneLine(%q) has a newline", s)
		}
		// Writer gives what Sanitize gives, and LogWriter what LogLine gives
		// line by line, however the stream is cut.
		for _, size := range []int{1, 2, 3, 7} {
			var b bytes.Buffer
			w := NewWriter(&b)
			for rest := []byte(s); len(rest) > 0; {
				n := min(size, len(rest))
				w.Write(rest[:n])
				rest = rest[n:]
			}
			w.Flush()
			if b.String() != Sanitize(s) {
				t.Errorf("Writer in pieces of %d: %q, Sanitize: %q", size, b.String(), Sanitize(s))
			}
			b.Reset()
			lw := NewLogWriter(&b)
			for rest := []byte(s); len(rest) > 0; {
				n := min(size, len(rest))
				lw.Write(rest[:n])
				rest = rest[n:]
			}
			lw.Flush()
			lines := strings.Split(s, "\n")
			for i, l := range lines {
				lines[i] = LogLine(l)
			}
			if want := strings.Join(lines, "\n"); b.String() != want {
				t.Errorf("LogWriter in pieces of %d: %q, LogLine by line: %q", size, b.String(), want)
			}
		}
	})
}
