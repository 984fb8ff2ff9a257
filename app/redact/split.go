package redact

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Secrets written so that a plain match misses them: split by characters
// a reader does not see (a soft hyphen, a zero-width space, any invisible
// format character, or the <U+00AD> notation `forge mcp serve` shows them
// in), spaced out a character at a time ("f g t _ ..."), written
// backwards, or (a held secret) in base32.

// moreVariants are the forms of a held secret variants adds: backwards,
// and base32 (upper and lower case) at every alignment.
func moreVariants(s string) []string {
	out := []string{reverse(s)}
	for k := 0; k < 5; k++ {
		e := base32Std(append(make([]byte, k), s...))
		from, to := (8*k+4)/5, (8*(k+len(s)))/5
		if to-from >= minDerived {
			out = append(out, e[from:to], strings.ToLower(e[from:to]))
		}
	}
	return out
}

// base32Std is b in base32 (RFC 4648's alphabet, no padding): written
// out, as encoding/base32 would add package initialisation to every forge
// command.
func base32Std(b []byte) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	var out strings.Builder
	var acc uint64
	bits := 0
	for _, c := range b {
		acc = acc<<8 | uint64(c)
		for bits += 8; bits >= 5; bits -= 5 {
			out.WriteByte(alphabet[acc>>(bits-5)&31])
		}
	}
	if bits > 0 {
		out.WriteByte(alphabet[acc<<(5-bits)&31])
	}
	return out.String()
}

func reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

// reversedPrefixes are the token prefixes written backwards.
var reversedPrefixes = []string{"_tgf", "_kga", "_phg", "_ohg", "_uhg", "_shg", "_rhg", "-tapl", "_tap_buhtig"}

// unsplit masks the secrets s holds split, spaced or backwards: held ones
// (r's) and the generic forms.
func (r *Redactor) unsplit(s string) string {
	if containsAny(s, reversedPrefixes) { // tokens' prefixes are lower-case
		s = reverse(generic(reverse(s)))
	}
	sq, pos := squeeze(s)
	if pos == nil {
		return s
	}
	var spans [][2]int
	add := func(from, to int) {
		if to > from && !strings.Contains(sq[from:to], Mask) {
			end := pos[to-1]
			_, n := utf8.DecodeRuneInString(s[end:])
			spans = append(spans, [2]int{pos[from], end + n})
		}
	}
	if r != nil {
		for _, h := range r.held {
			for _, v := range []string{h, reverse(h)} {
				for off := 0; ; {
					i := strings.Index(sq[off:], v)
					if i < 0 {
						break
					}
					add(off+i, off+i+len(v))
					off += i + len(v)
				}
			}
		}
	}
	lower := strings.ToLower(sq)
	for _, ru := range rules() {
		if !containsAny(lower, ru.any) {
			continue
		}
		for _, m := range ru.re.FindAllStringSubmatchIndex(sq, -1) {
			from, to := m[len(m)-2], m[len(m)-1]
			if from >= 0 && (ru.check == nil || ru.check(sq[from:to])) {
				add(from, to)
			}
		}
	}
	return maskSpans(s, spans)
}

// squeeze is s without what hides a secret's continuity: invisible
// characters, their <U+XXXX> notation, and the single spaces between
// single characters; pos[i] is where sq's byte i is in s. pos is nil
// when nothing was taken out.
func squeeze(s string) (sq string, pos []int) {
	if !mayHide(s) {
		return s, nil
	}
	var b strings.Builder
	idx := make([]int, 0, len(s))
	for i := 0; i < len(s); {
		if n := notation(s[i:]); n > 0 {
			i += n
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if invisible(r) || r == ' ' && spacedOut(s, i) {
			i += n
			continue
		}
		b.WriteString(s[i : i+n])
		for k := range n {
			idx = append(idx, i+k)
		}
		i += n
	}
	if b.Len() == len(s) {
		return s, nil
	}
	return b.String(), idx
}

// mayHide reports whether s holds anything squeeze takes out.
func mayHide(s string) bool {
	if strings.Contains(s, "<U+") {
		return true
	}
	for i, r := range s {
		if invisible(r) || r == ' ' && spacedOut(s, i) {
			return true
		}
	}
	return false
}

// spacedOut reports whether the space at s[i] is one of those written
// between single characters ("f g t _"): a non-space on each side, and a
// space or the text's end beyond each.
func spacedOut(s string, i int) bool {
	if i < 1 || i+1 >= len(s) || s[i-1] == ' ' || s[i+1] == ' ' || s[i-1] >= utf8.RuneSelf || s[i+1] >= utf8.RuneSelf {
		return false
	}
	return (i < 2 || s[i-2] == ' ') && (i+2 >= len(s) || s[i+2] == ' ')
}

// notation is the length of the <U+XXXX> at the start of s when it names
// an invisible character, else 0.
func notation(s string) int {
	if !strings.HasPrefix(s, "<U+") {
		return 0
	}
	end := strings.IndexByte(s, '>')
	if end < 4 || end > 9 {
		return 0
	}
	v, err := strconv.ParseUint(s[3:end], 16, 32)
	if err != nil || !invisible(rune(v)) {
		return 0
	}
	return end + 1
}

// invisible reports whether r is a character a reader does not see:
// format characters (the soft hyphen, zero-width ones, bidi controls),
// the combining grapheme joiner, variation selectors, fillers.
func invisible(r rune) bool {
	return r >= 0xa0 && (unicode.Is(unicode.Cf, r) || r == 0x034f || r == 0x115f || r == 0x1160 || r == 0x3164 || r == 0xffa0 ||
		r >= 0x180b && r <= 0x180f || r >= 0xfe00 && r <= 0xfe0f || r >= 0xe0100 && r <= 0xe01ef)
}

// maskSpans replaces each span of s with Mask, merging overlaps.
func maskSpans(s string, spans [][2]int) string {
	if len(spans) == 0 {
		return s
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		if sp[1] <= last {
			continue
		}
		if sp[0] >= last {
			b.WriteString(s[last:sp[0]])
			b.WriteString(Mask)
		}
		last = sp[1]
	}
	b.WriteString(s[last:])
	return b.String()
}
