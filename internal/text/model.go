package text

import (
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// Markers ForModel leaves where it took something out, so the model
// knows text was there without reading it.
const (
	HiddenComment = "[hidden HTML comment removed]"
	HiddenMarkup  = "[hidden markup removed]"
	HiddenTags    = "[hidden Unicode tag text removed]"
)

// ForModel makes text from a server safe to hand to a language model
// (`forge mcp serve`). A terminal is attacked with escape sequences; a
// model with text a person reviewing the same issue on the web would not
// see. So, unlike Sanitize:
//
//	terminal escapes       removed whole (ESC [ ... m, OSC ... BEL), not shown
//	other C0, DEL, C1      removed (newline and tab kept, CRLF as LF)
//	bidi controls and      shown as <U+202E>: U+202A–U+202E, U+2066–U+2069,
//	invisible characters   U+061C, U+200B–U+200F, U+2060–U+2064, U+FEFF,
//	                       U+00AD, U+180E, variation selectors
//	Unicode tag characters (U+E0000–U+E007F, invisible ASCII) a run becomes
//	                       [hidden Unicode tag text removed]
//	HTML comments          [hidden HTML comment removed]
//	hidden markup          <script>, <style>, <template>, <noscript>, elements
//	                       with a hidden attribute or a style that hides them,
//	                       markdown comments ([//]: # (...)): [hidden markup removed]
//	bytes not UTF-8        <0x9B>
//
// Text with none of these is returned as it is, without copying.
func ForModel(s string) string {
	if modelClean(s) {
		return s
	}
	// Characters first: a control dropped from "<!\a--" must not leave a
	// comment opener behind for the markup pass to miss.
	return stripHidden(modelChars(s))
}

// modelChars is ForModel's pass over characters: escapes and controls
// removed, invisible characters shown, tag text replaced.
func modelChars(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	inTags := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			inTags = false
			switch {
			case c == 0x1b:
				i += escapeLen(s[i:])
				continue
			case c == '\n' || c == '\t':
				b.WriteByte(c)
			case c < 0x20 || c == 0x7f: // CR, BEL, backspace, ...: dropped
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
		case r >= 0xe0000 && r <= 0xe007f:
			if !inTags {
				b.WriteString(HiddenTags)
			}
			inTags = true
			continue
		case r >= 0x80 && r <= 0x9f: // C1: dropped, as C0
		case isInvisible(r):
			writeCode(&b, "<U+", uint32(r), 4)
		default:
			b.WriteRune(r)
		}
		inTags = false
	}
	return b.String()
}

// modelClean reports whether ForModel would leave s as it is.
func modelClean(s string) bool {
	if hasMarkdownComment(s) {
		return false
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f || c == '<' {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || r <= 0x9f || isInvisible(r) || r >= 0xe0000 && r <= 0xe007f {
			return false
		}
		i += n
	}
	return true
}

// isInvisible reports whether r changes or hides what a reader sees
// without being seen itself: bidi controls, zero-width characters,
// the soft hyphen, variation selectors.
func isInvisible(r rune) bool {
	switch {
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x061c,
		r >= 0x200b && r <= 0x200f, r >= 0x2060 && r <= 0x2064, r == 0xfeff,
		r == 0x00ad, r == 0x180e, r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef:
		return true
	}
	return false
}

// escapeLen is the length of the escape sequence at the start of s (which
// starts with ESC): CSI (ESC [ ... final byte), OSC/DCS/APC/PM/SOS
// (ESC ] ... BEL or ESC \), or ESC and one more byte.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s); i++ {
			if s[i] >= 0x40 && s[i] <= 0x7e {
				return i + 1
			}
		}
		return len(s)
	case ']', 'P', '_', '^', 'X':
		for i := 2; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
		}
		return len(s)
	}
	return 2
}

// hiddenRules find markup a rendered page does not show. They are compiled
// on first use: a package-level regexp would cost every forge invocation.
var hiddenRules = sync.OnceValues(func() (open, mdComment *regexp.Regexp) {
	return regexp.MustCompile(`(?is)<([a-z][a-z0-9-]*)\b((?:[^>"']|"[^"]*"|'[^']*')*)>`),
		regexp.MustCompile(`(?m)^[ \t]{0,3}\[(?://|comment|_)\]:[ \t]*(?:#|<>)[^\n]*$`)
})

// hiddenAttr matches an opening tag's attributes that hide the element.
var hiddenAttr = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|\s)hidden(?:\s|=|/|$)|aria-hidden\s*=\s*["']?true|display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:[^.0-9]|$)|opacity\s*:\s*0(?:[^.0-9]|$)`)
})

func hasMarkdownComment(s string) bool {
	return strings.Contains(s, "]:") && func() bool { _, md := hiddenRules(); return md.MatchString(s) }()
}

// stripHidden takes out HTML comments, hidden elements (with what they
// hold) and markdown comments, leaving a marker for each.
func stripHidden(s string) string {
	if !strings.Contains(s, "<") && !strings.Contains(s, "]:") {
		return s
	}
	s = stripComments(s)
	open, md := hiddenRules()
	if strings.Contains(s, "]:") {
		s = md.ReplaceAllString(s, HiddenMarkup)
	}
	var b strings.Builder
	for {
		loc := open.FindStringSubmatchIndex(s)
		if loc == nil {
			b.WriteString(s)
			return b.String()
		}
		tag := strings.ToLower(s[loc[2]:loc[3]])
		attrs := s[loc[4]:loc[5]]
		if !hidesContent(tag, attrs) {
			b.WriteString(s[:loc[1]])
			s = s[loc[1]:]
			continue
		}
		b.WriteString(s[:loc[0]])
		b.WriteString(HiddenMarkup)
		s = s[loc[1]:]
		if strings.HasSuffix(strings.TrimSpace(attrs), "/") {
			continue
		}
		s = s[closingEnd(s, tag):]
	}
}

func hidesContent(tag, attrs string) bool {
	switch tag {
	case "script", "style", "template", "noscript", "iframe", "object":
		return true
	}
	return hiddenAttr().MatchString(attrs)
}

// stripComments replaces each <!-- ... --> (an unclosed one runs to the
// end) with HiddenComment.
func stripComments(s string) string {
	i := strings.Index(s, "<!--")
	if i < 0 {
		return s
	}
	var b strings.Builder
	for i >= 0 {
		b.WriteString(s[:i])
		b.WriteString(HiddenComment)
		s = s[i+4:]
		end := strings.Index(s, "-->")
		if end < 0 {
			return b.String()
		}
		s = s[end+3:]
		i = strings.Index(s, "<!--")
	}
	b.WriteString(s)
	return b.String()
}

// closingEnd is where the element named tag that s is inside ends: after
// its matching closing tag, counting nested elements of the same name, or
// the end of s when it is never closed (hidden to the end, as a browser
// would hide it).
func closingEnd(s, tag string) int {
	lower := strings.ToLower(s)
	depth := 1
	for i := 0; i < len(lower); {
		j := strings.IndexByte(lower[i:], '<')
		if j < 0 {
			break
		}
		i += j
		rest := lower[i+1:]
		switch {
		case strings.HasPrefix(rest, "/"+tag) && tagEnds(rest[1+len(tag):]):
			depth--
			if depth == 0 {
				if k := strings.IndexByte(lower[i:], '>'); k >= 0 {
					return i + k + 1
				}
				return len(s)
			}
		case strings.HasPrefix(rest, tag) && tagEnds(rest[len(tag):]):
			depth++
		}
		i++
	}
	return len(s)
}

func tagEnds(s string) bool {
	return s == "" || s[0] == '>' || s[0] == ' ' || s[0] == '\t' || s[0] == '\n' || s[0] == '/'
}
