package markdown

import "strings"

// Link reference definitions ("[label]: destination "title"") open a
// paragraph; they are never shown. A reference link ("[text][label]",
// "[label][]", "[label]") whose label was defined earlier in the document
// renders as an inline link to that destination. Only earlier definitions
// count: a stream cannot know the text to come, and Render shows exactly
// what a stream shows, so a reference to a later definition stays as
// written.

// splitDefs cuts the link reference definitions off the start of a
// paragraph's text, calling add for each, and returns the rest.
func splitDefs(text string, add func(label, dest string)) string {
	for {
		label, dest, n, ok := refDef(text)
		if !ok {
			return text
		}
		if add != nil {
			add(label, dest)
		}
		text = text[n:]
	}
}

// refDef parses one definition at the start of s, returning its length
// including its line end.
func refDef(s string) (label, dest string, n int, ok bool) {
	end := labelEnd(s, 0)
	if end < 0 || end+1 >= len(s) || s[end+1] != ':' {
		return "", "", 0, false
	}
	i := skipOneNewline(s, end+2)
	if i >= len(s) || s[i] == '\n' {
		return "", "", 0, false
	}
	dest, i, ok = linkDest(s, i)
	if !ok || dest == "" && s[i-1] != '>' {
		return "", "", 0, false
	}
	if t, ok := linkTitle(s, i); ok {
		if e, ok := lineEnd(s, t); ok {
			return s[1:end], dest, e, true
		}
	}
	if e, ok := lineEnd(s, i); ok {
		return s[1:end], dest, e, true
	}
	return "", "", 0, false
}

// labelEnd returns the index of the "]" closing the link label that opens
// at i, or -1: a label has no unescaped brackets, at most 999 characters
// and something besides whitespace.
func labelEnd(s string, i int) int {
	if i >= len(s) || s[i] != '[' {
		return -1
	}
	for j := i + 1; j < len(s) && j-i <= 1000; j++ {
		switch s[j] {
		case '\\':
			j++
		case '[':
			return -1
		case ']':
			if strings.TrimSpace(s[i+1:j]) == "" {
				return -1
			}
			return j
		}
	}
	return -1
}

// linkTitle parses a title after a destination ending at i: whitespace
// (at most one line end), then "...", '...' or (...). It returns the index
// after the title.
func linkTitle(s string, i int) (int, bool) {
	k := skipOneNewline(s, i)
	if k == i || k >= len(s) {
		return 0, false
	}
	closer := s[k]
	switch closer {
	case '"', '\'':
	case '(':
		closer = ')'
	default:
		return 0, false
	}
	for j := k + 1; j < len(s); j++ {
		switch {
		case s[j] == '\\':
			j++
		case s[j] == closer:
			return j + 1, true
		case s[k] == '(' && s[j] == '(':
			return 0, false
		}
	}
	return 0, false
}

// skipOneNewline skips spaces with at most one line end among them.
func skipOneNewline(s string, i int) int {
	_, i = indentOf(s, i)
	if i < len(s) && s[i] == '\n' {
		_, i = indentOf(s, i+1)
	}
	return i
}

// lineEnd reports whether only spaces follow i on its line, and where the
// next line starts.
func lineEnd(s string, i int) (int, bool) {
	_, i = indentOf(s, i)
	switch {
	case i == len(s):
		return i, true
	case s[i] == '\n':
		return i + 1, true
	}
	return 0, false
}

// normLabel is a label as definitions and references match it: case and
// runs of whitespace do not matter.
func normLabel(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// mayBeDef reports whether paragraph text could still turn out to open with
// a definition, which a stream must not show before the paragraph ends.
func mayBeDef(text string) bool {
	if text == "" || text[0] != '[' {
		return false
	}
	end := labelEnd(text, 0)
	if end < 0 {
		return strings.IndexByte(text, ']') < 0 && len(text) <= 1000
	}
	return end+1 >= len(text) || text[end+1] == ':'
}

// reference resolves a reference link whose text is src[textStart:i] and
// whose "]" is at i: the destination and the end of the reference, whether
// it names a definition, and whether more text could still change that.
func (p *inlineParser) reference(textStart, i int) (dest string, end int, ok, incomplete bool) {
	src := p.src
	label, end := src[textStart:i], i+1
	if end < len(src) && src[end] == '[' {
		le := labelEnd(src, end)
		switch {
		case strings.HasPrefix(src[end:], "[]"):
			end += 2 // collapsed: the text is the label
		case le >= 0:
			label, end = src[end+1:le], le+1
		default:
			incomplete = strings.IndexByte(src[end+1:], ']') < 0
		}
	} else if end >= len(src) {
		incomplete = true // "(" or "[" may follow
	}
	if len(p.refs) == 0 {
		return "", 0, false, incomplete
	}
	dest, ok = p.refs[normLabel(label)]
	return dest, end, ok, incomplete
}
