package servicefixture

import (
	"regexp"
	"unicode/utf8"
)

// allowed are the escape sequences forge writes itself: colours (SGR,
// which a job log's lines keep too), erasing a line, moving up over the
// lines of a redrawn progress display, and the carriage return of a
// redrawn line.
var allowed = regexp.MustCompile(`\x1b\[[0-9;]*[mKA]|\r`)

// Unsafe finds what must not reach a terminal: ESC (but in allowed) and
// the other C0 controls but newline and tab, DEL, C1 controls (as
// characters and as raw bytes) and bidi controls.
func Unsafe(s string) (rune, bool) {
	s = allowed.ReplaceAllString(s, "")
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			if s[i] >= 0x80 && s[i] <= 0x9f {
				return rune(s[i]), true
			}
		case r < 0x20 && r != '\n' && r != '\t', r == 0x7f, r >= 0x80 && r <= 0x9f,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return r, true
		}
		i += n
	}
	return 0, false
}
