package markdown

import "strings"

// HTML blocks are CommonMark's seven kinds (spec section 4.6). Their lines
// are shown as written, unwrapped and without markdown parsing, so a <pre>
// keeps its spacing and a <details> its lines; control characters are still
// escaped like all input. Kinds 1 to 5 end at a line holding their end
// marker (blank lines included), kinds 6 and 7 at a blank line.

// htmlStart returns the kind (1–7) of HTML block that line text s (after
// at most three spaces of indentation) starts, or 0. Kind 7 cannot
// interrupt a paragraph, so it is only reported when para is false.
func htmlStart(s string, para bool) int {
	if len(s) < 2 || s[0] != '<' {
		return 0
	}
	lower := strings.ToLower(s[:min(len(s), 12)])
	switch {
	case strings.HasPrefix(lower, "<!--"):
		return 2
	case strings.HasPrefix(lower, "<?"):
		return 3
	case strings.HasPrefix(s, "<![CDATA["):
		return 5
	case strings.HasPrefix(lower, "<!") && len(s) > 2 && isAlpha(s[2]):
		return 4
	}
	for _, name := range htmlRawTags {
		if strings.HasPrefix(lower, "<"+name) && tagEnds(s[1+len(name):], false) {
			return 1
		}
	}
	name := s[1:]
	if name[0] == '/' {
		name = name[1:]
	}
	n := 0
	for n < len(name) && (isAlpha(name[n]) || isDigit(name[n])) {
		n++
	}
	if n > 0 && strings.Contains(htmlBlockTags, " "+strings.ToLower(name[:n])+" ") && tagEnds(name[n:], true) {
		return 6
	}
	if !para && completeTag(s) {
		return 7
	}
	return 0
}

// htmlEnds reports whether line text s ends an HTML block of kind k.
func htmlEnds(k int, s string) bool {
	switch k {
	case 1:
		lower := strings.ToLower(s)
		for _, name := range htmlRawTags {
			if strings.Contains(lower, "</"+name+">") {
				return true
			}
		}
		return false
	case 2:
		return strings.Contains(s, "-->")
	case 3:
		return strings.Contains(s, "?>")
	case 4:
		return strings.Contains(s, ">")
	case 5:
		return strings.Contains(s, "]]>")
	}
	return false
}

var htmlRawTags = [...]string{"pre", "script", "style", "textarea"}

// htmlBlockTags are the tag names that start a kind 6 block, each between
// spaces (a string, not a map: the package does nothing at init).
const htmlBlockTags = " address article aside base basefont blockquote body caption center col" +
	" colgroup dd details dialog dir div dl dt fieldset figcaption figure footer form frame frameset" +
	" h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link main menu menuitem nav noframes ol" +
	" optgroup option p param search section summary table tbody td tfoot th thead title tr track ul "

// tagEnds reports whether s, what follows a tag name, ends it: a space, the
// end of the line, ">" or (when selfClose) "/>".
func tagEnds(s string, selfClose bool) bool {
	return s == "" || s[0] == ' ' || s[0] == '>' || selfClose && strings.HasPrefix(s, "/>")
}

// completeTag reports whether s is one complete open or closing tag
// followed only by spaces (kind 7), with a name other than the raw tags.
func completeTag(s string) bool {
	end := tagEnd(s, 0)
	if end < 0 || strings.TrimRight(s[end:], " ") != "" {
		return false
	}
	name := strings.TrimPrefix(s[1:], "/")
	n := 0
	for n < len(name) && (isAlpha(name[n]) || isDigit(name[n]) || name[n] == '-') {
		n++
	}
	for _, raw := range htmlRawTags {
		if strings.EqualFold(name[:n], raw) {
			return false
		}
	}
	return true
}

// tagEnd returns the end of the open or closing tag at s[i] ("<"), or -1.
func tagEnd(s string, i int) int {
	i++
	closing := i < len(s) && s[i] == '/'
	if closing {
		i++
	}
	if i >= len(s) || !isAlpha(s[i]) {
		return -1
	}
	for i < len(s) && (isAlpha(s[i]) || isDigit(s[i]) || s[i] == '-') {
		i++
	}
	if !closing {
		for {
			j := skipSpace(s, i)
			k := attribute(s, j)
			if j == i || k == j {
				i = j
				break
			}
			i = k
		}
		if i < len(s) && s[i] == '/' {
			i++
		}
	} else {
		i = skipSpace(s, i)
	}
	if i >= len(s) || s[i] != '>' {
		return -1
	}
	return i + 1
}

// rawHTML returns the end of the inline HTML (a tag, comment, processing
// instruction, declaration or CDATA section) at s[i] ("<"), or -1, and
// whether text still to come could make it one: a stream waits for that.
func rawHTML(s string, i int) (end int, incomplete bool) {
	rest := s[i:]
	closeAt := func(open, close string) (int, bool) {
		if k := strings.Index(rest[len(open):], close); k >= 0 {
			return i + len(open) + k + len(close), false
		}
		return -1, true
	}
	switch {
	case strings.HasPrefix(rest, "<!-->"):
		return i + 5, false
	case strings.HasPrefix(rest, "<!--->"):
		return i + 6, false
	case strings.HasPrefix(rest, "<!--"):
		return closeAt("<!--", "-->")
	case strings.HasPrefix(rest, "<?"):
		return closeAt("<?", "?>")
	case strings.HasPrefix(rest, "<![CDATA["):
		return closeAt("<![CDATA[", "]]>")
	case len(rest) > 2 && rest[1] == '!' && isAlpha(rest[2]):
		return closeAt("<!", ">")
	}
	if end := tagEnd(s, i); end >= 0 {
		return end, false
	}
	// Any prefix of a tag, comment or the like could still become one.
	return -1, strings.IndexByte(rest, '>') < 0 && (len(rest) == 1 || strings.IndexByte("/!?", rest[1]) >= 0 || isAlpha(rest[1]))
}

// attribute returns the end of an attribute (name, optional value) at i,
// or i when there is none.
func attribute(s string, i int) int {
	j := i
	if j >= len(s) || !(isAlpha(s[j]) || s[j] == '_' || s[j] == ':') {
		return i
	}
	for j < len(s) && (isAlpha(s[j]) || isDigit(s[j]) || strings.IndexByte("_.:-", s[j]) >= 0) {
		j++
	}
	k := skipSpace(s, j)
	if k >= len(s) || s[k] != '=' {
		return j
	}
	k = skipSpace(s, k+1)
	if k >= len(s) {
		return i
	}
	switch q := s[k]; q {
	case '"', '\'':
		end := strings.IndexByte(s[k+1:], q)
		if end < 0 {
			return i
		}
		return k + end + 2
	default:
		e := k
		for e < len(s) && strings.IndexByte(" \n\"'=<>`", s[e]) < 0 {
			e++
		}
		if e == k {
			return i
		}
		return e
	}
}
