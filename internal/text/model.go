package text

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Markers ProseForModel leaves where it took something out, so the model
// knows text was there without reading it.
const (
	HiddenComment = "[hidden HTML comment removed]"
	HiddenMarkup  = "[hidden markup removed]"
	HiddenTags    = "[hidden Unicode tag text removed]"
)

// ForModel makes text from a server that is data — a file, a log, a
// diff, a title, a name — safe to hand to a language model (`forge mcp
// serve`) and keeps it byte for byte otherwise: a model that edits a
// file it read must read the file. What a person would not see is made
// visible, never taken out:
//
//	colour sequences (SGR)  removed (ESC [ ... m: styling, no text)
//	other C0 controls, DEL  caret notation: ESC as ^[, BEL as ^G (newline
//	                        and tab kept, CR kept before LF): an escape
//	                        never closed hides nothing after it
//	C1 controls, bidi       shown as <U+202E>: C1, U+202A–U+202E,
//	controls, invisible     U+2066–U+2069, zero-width and other format
//	characters              characters, fillers, variation selectors,
//	                        Unicode tag characters, noncharacters
//	bytes not UTF-8         <0x9B>
//
// Text with none of these is returned as it is, without copying.
func ForModel(s string) string {
	if modelClean(s) {
		return s
	}
	return modelChars(s, false)
}

// modelChars is ForModel's pass over characters; prose replaces a run of
// Unicode tag characters (invisible ASCII) with HiddenTags.
func modelChars(s string, prose bool) string {
	var b strings.Builder
	b.Grow(len(s) + 16)
	inTags := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			inTags = false
			switch {
			case c == 0x1b && sgrLen(s[i:]) > 0:
				i += sgrLen(s[i:])
				continue
			case c == '\n' || c == '\t' || c == '\r' && i+1 < len(s) && s[i+1] == '\n':
				b.WriteByte(c)
			case c < 0x20 || c == 0x7f:
				writeControl(&b, rune(c))
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == utf8.RuneError && n == 1:
			writeCode(&b, "<0x", uint32(s[i-1]), 2)
		case prose && isTag(r):
			if !inTags {
				b.WriteString(HiddenTags)
			}
			inTags = true
			continue
		case r <= 0x9f || isInvisible(r):
			writeRune(&b, r)
		default:
			b.WriteString(s[i-n : i])
		}
		inTags = false
	}
	return b.String()
}

func isTag(r rune) bool { return r >= 0xe0000 && r <= 0xe007f }

// writeRune shows r as <U+XXXX>, with as many digits as it needs.
func writeRune(b *strings.Builder, r rune) {
	n := 4
	for v := uint32(r) >> 16; v > 0; v >>= 4 {
		n++
	}
	writeCode(b, "<U+", uint32(r), n)
}

// modelClean reports whether ForModel would leave s as it is.
func modelClean(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || r <= 0x9f || isInvisible(r) {
			return false
		}
		i += n
	}
	return true
}

// isInvisible reports whether r changes or hides what a reader sees
// without being seen itself: format characters (bidi controls,
// zero-width characters, the soft hyphen, Unicode tags, ...), the
// combining grapheme joiner, variation selectors, the Hangul and
// Khmer fillers, line and paragraph separators, and noncharacters.
func isInvisible(r rune) bool {
	switch {
	case r < 0xa0:
		return false
	case r == 0x034f, r == 0x115f, r == 0x1160, r == 0x17b4, r == 0x17b5, r >= 0x180b && r <= 0x180f,
		r == 0x2028, r == 0x2029, r == 0x3164, r == 0xffa0,
		r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef,
		r >= 0xfdd0 && r <= 0xfdef, r&0xfffe == 0xfffe:
		return true
	}
	return unicode.Is(unicode.Cf, r)
}
