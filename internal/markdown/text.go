package markdown

import (
	"html"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/forgehq/forge/internal/text"
)

// decodeEntity decodes an HTML character reference at the start of s
// ("&amp;", "&#38;", "&#x26;") and returns its text and length, or n == 0.
// Named references are HTML's, with their ";".
func decodeEntity(s string) (decoded string, n int) {
	if len(s) < 3 || s[0] != '&' {
		return "", 0
	}
	semi := strings.IndexByte(s[:min(len(s), 40)], ';')
	if semi < 2 {
		return "", 0
	}
	name := s[1:semi]
	if name[0] == '#' {
		num, base := name[1:], 10
		if len(num) > 0 && (num[0] == 'x' || num[0] == 'X') {
			num, base = num[1:], 16
		}
		if len(num) == 0 || base == 10 && len(num) > 7 || base == 16 && len(num) > 6 {
			return "", 0
		}
		v, err := strconv.ParseUint(num, base, 32)
		if err != nil {
			return "", 0
		}
		r := rune(v)
		switch {
		case r == 0 || !utf8.ValidRune(r):
			r = utf8.RuneError
		case r == '\t' || r == '\n' || r == '\r':
			r = ' ' // a line break or tab here would break the layout
		}
		return text.Sanitize(string(r)), semi + 1
	}
	for i := 0; i < len(name); i++ {
		if !isAlpha(name[i]) && !isDigit(name[i]) {
			return "", 0
		}
	}
	// The standard library's table is built on first use, not at init.
	ref := s[:semi+1]
	r := html.UnescapeString(ref)
	// It also decodes a legacy name without ";" at the start of a longer
	// one ("&notin;" is a name, "&notit;" only "&not" and "it;").
	if r == ref || strings.HasSuffix(r, ";") && name != "semi" {
		return "", 0
	}
	return text.Sanitize(r), semi + 1
}

// expandTabs replaces tabs with spaces to the next multiple of 4 columns, as
// CommonMark counts indentation; a terminal's own tab stops would misalign
// prefixed and wrapped lines.
func expandTabs(s string) string {
	if strings.IndexByte(s, '\t') < 0 {
		return s
	}
	var b strings.Builder
	col := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c == '\t' {
			n := 4 - col%4
			b.WriteString("    "[:n])
			col += n
			i++
			continue
		}
		if c < 0x80 {
			b.WriteByte(c)
			col++
			i++
			continue
		}
		g, w := firstGrapheme(s[i:])
		b.WriteString(g)
		col += w
		i += len(g)
	}
	return b.String()
}

// firstGrapheme returns the first grapheme cluster of s and its width, at
// least one byte so loops always advance.
func firstGrapheme(s string) (string, int) {
	g, w := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
	if g == "" {
		return s[:1], 1
	}
	return g, w
}
