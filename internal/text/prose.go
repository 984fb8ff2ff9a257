package text

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// ProseForModel is ForModel for rendered prose — the markdown bodies of
// issues, pull requests, comments and releases — where a model is
// attacked with what a person reading the rendered page would not see.
// Besides what ForModel does, outside code spans and code blocks —
// fenced or indented, in quotes and list items, as CommonMark finds them
// (codeBlocks) — which show their text as written, it takes out what the
// page hides, leaving a marker where it was:
//
//	HTML comments, <?...>, <!...>  [hidden HTML comment removed]
//	<script>, <style>, <template>, [hidden markup removed]
//	<noscript>, <iframe>, <object>,
//	elements with a hidden attribute
//	or a style that hides them, link
//	reference definitions to # or <>
//	(markdown comments)
//	a run of Unicode tag characters [hidden Unicode tag text removed]
//
// A comment or hidden element never closed is not taken out (a browser
// would hide the rest of the page): its opener becomes a marker saying
// so, and the text after it is kept. A comment that would hold a code
// block is not one (CommonMark ends it with its paragraph) and stays;
// a hidden element's code goes with it, as the page hides it.
func ProseForModel(s string) string {
	if modelClean(s) && !strings.Contains(s, "<") && !strings.Contains(s, "]:") {
		return s
	}
	// Characters first: a control shown from "<!\a--" must not leave a
	// comment opener behind for the markup pass to miss.
	masked, code := maskCode(modelChars(s, true))
	return unmask(stripHidden(masked), code)
}

// Unclosed is the marker an opener never closed becomes.
func Unclosed(what string) string {
	return "[unclosed " + what + ": a web page hides the rest; shown]"
}

// The placeholders of code regions: noncharacters, which modelChars
// shows as <U+FDD0>, so no text can hold one.
const (
	codeOpen  = "\ufdd0"
	codeClose = "\ufdd1"
)

// maskCode replaces the code blocks (fenced and indented, as CommonMark
// finds them: codeBlocks) and code spans of markdown s with
// placeholders, so the markup pass leaves them as written. An HTML
// comment or tag that starts before a code span wins over it, as in
// CommonMark.
func maskCode(s string) (string, []string) {
	if !strings.Contains(s, "`") && !strings.Contains(s, "~~~") && !strings.Contains(s, "    ") && !strings.Contains(s, "\t") {
		return s, nil
	}
	var b strings.Builder
	b.Grow(len(s) + 64) // markers may make it longer
	var code []string
	mask := func(c string) {
		b.WriteString(codeOpen)
		b.WriteString(strconv.Itoa(len(code)))
		b.WriteString(codeClose)
		code = append(code, c)
	}
	at := 0
	for _, blk := range codeBlocks(s) {
		maskSpans(&b, s[at:blk[0]], mask)
		mask(s[blk[0]:blk[1]])
		at = blk[1]
	}
	maskSpans(&b, s[at:], mask)
	return b.String(), code
}

// maskSpans writes s with its code spans masked, scanning left to right
// so that a comment or tag met first is kept whole.
func maskSpans(b *strings.Builder, s string, mask func(string)) {
	for i := 0; i < len(s); {
		switch {
		case s[i] == '`':
			n := run(s[i:], '`')
			if end := closingRun(s[i+n:], n); end >= 0 {
				mask(s[i : i+n+end+n])
				i += n + end + n
				continue
			}
			b.WriteString(s[i : i+n])
			i += n
		case strings.HasPrefix(s[i:], "<!--"):
			end := strings.Index(s[i+4:], "-->")
			if end < 0 {
				b.WriteString("<!--")
				i += 4
				continue
			}
			b.WriteString(s[i : i+4+end+3])
			i += 4 + end + 3
		case s[i] == '<' && i+1 < len(s) && (isLetter(s[i+1]) || s[i+1] == '/'):
			end := tagEnd(s[i:])
			b.WriteString(s[i : i+end])
			i += end
		case s[i] == '<':
			b.WriteByte('<')
			i++
		default: // up to the next '`' or '<'
			j := strings.IndexAny(s[i:], "`<")
			if j < 0 {
				j = len(s) - i
			}
			b.WriteString(s[i : i+j])
			i += j
		}
	}
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// tagEnd is the length of the tag s starts with (through its '>', quoted
// values skipped), or 1 when it does not close.
func tagEnd(s string) int {
	var quote byte
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			return i + 1
		}
	}
	return 1
}

// closingRun is where in s a run of exactly n backticks starts, within
// the paragraph, or -1.
func closingRun(s string, n int) int {
	for i := 0; i < len(s); {
		switch {
		case s[i] == '`':
			m := run(s[i:], '`')
			if m == n {
				return i
			}
			i += m
		case strings.HasPrefix(s[i:], "\n\n"):
			return -1
		default:
			i++
		}
	}
	return -1
}

func run(s string, c byte) int {
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	return n
}

// unmask puts the code regions back in place of their placeholders.
func unmask(s string, code []string) string {
	if len(code) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 64) // markers may make it longer
	for {
		i := strings.Index(s, codeOpen)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.Index(s[i:], codeClose)
		n, err := -1, error(nil)
		if j > 0 {
			n, err = strconv.Atoi(s[i+len(codeOpen) : i+j])
		}
		if j < 0 || err != nil || n < 0 || n >= len(code) {
			b.WriteString(s) // cannot be: placeholders are cut whole
			return b.String()
		}
		b.WriteString(s[:i])
		b.WriteString(code[n])
		s = s[i+j+len(codeClose):]
	}
}

// hiddenRules find markup a rendered page does not show. They are compiled
// on first use: a package-level regexp would cost every forge invocation.
var hiddenRules = sync.OnceValues(func() (open, mdComment *regexp.Regexp) {
	return regexp.MustCompile(`(?is)^<([a-z][a-z0-9-]*)\b((?:[^>"']|"[^"]*"|'[^']*')*)>`),
		regexp.MustCompile(`(?m)^[ \t]{0,3}\[[^\]\n]+\]:[ \t]*(?:#|<>)[^\n]*$`)
})

// hiddenAttr matches an opening tag's attributes that hide the element.
var hiddenAttr = sync.OnceValue(func() *regexp.Regexp {
	const zero = `\s*:\s*(?:0+(?:\.0*)?|\.0+)(?:[^.0-9]|$)`
	return regexp.MustCompile(`(?i)(?:^|[\s/])hidden(?:\s|=|/|$)|aria-hidden\s*=\s*["']?true|display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse)|font-size` + zero + `|opacity` + zero)
})

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
	b.Grow(len(s) + 64)      // markers may make it longer
	lower := asciiLower(s)   // once: the closing tags are looked for in it
	last := map[string]int{} // where each tag's last closing tag starts
	for at := 0; ; {
		loc, ok := nextTag(open, s, at)
		if !ok {
			b.WriteString(s[at:])
			return b.String()
		}
		tag := lower[at+loc[2] : at+loc[3]]
		attrs := s[at+loc[4] : at+loc[5]]
		if !hidesContent(tag, attrs) {
			b.WriteString(s[at : at+loc[1]])
			at += loc[1]
			continue
		}
		b.WriteString(s[at : at+loc[0]])
		at += loc[1]
		if strings.HasSuffix(strings.TrimSpace(attrs), "/") {
			b.WriteString(HiddenMarkup)
			continue
		}
		if _, ok := last[tag]; !ok {
			last[tag] = strings.LastIndex(lower, "</"+tag)
		}
		end := -1
		if last[tag] >= at {
			end = closingEnd(lower[at:], tag)
		}
		if end < 0 {
			b.WriteString(Unclosed(tag + " element"))
			continue
		}
		b.WriteString(HiddenMarkup)
		at += end
	}
}

// nextTag finds the first opening tag in s from at, as open (anchored)
// matches it, its indexes relative to at: the pattern is tried where a
// '<' and a letter are, not searched for at every byte, and a tag with
// no attributes (<b>) is read without it.
func nextTag(open *regexp.Regexp, s string, at int) (loc [6]int, ok bool) {
	for i := at; ; i++ {
		j := strings.IndexByte(s[i:], '<')
		if j < 0 {
			return loc, false
		}
		i += j
		if i+1 >= len(s) || !isLetter(s[i+1]) {
			continue
		}
		loc, ok = bareTag(s, i)
		if !ok {
			m := open.FindStringSubmatchIndex(s[i:])
			ok = m != nil
			copy(loc[:], m)
		}
		if ok {
			for k := range loc {
				loc[k] += i - at
			}
			return loc, true
		}
	}
}

// bareTag is open's match of a tag without attributes at s[i] (its
// indexes from i). A name ending in '-' is left to open, which takes the
// '-' for an attribute (\b).
func bareTag(s string, i int) ([6]int, bool) {
	k := i + 1
	for k < len(s) && (isLetter(s[k]) || s[k] >= '0' && s[k] <= '9' || s[k] == '-') {
		k++
	}
	if k == len(s) || s[k] != '>' || s[k-1] == '-' {
		return [6]int{}, false
	}
	n := k - i
	return [6]int{0, n + 1, 1, n, n, n}, true
}

func hidesContent(tag, attrs string) bool {
	switch tag {
	case "script", "style", "template", "noscript", "iframe", "object":
		return true
	}
	return hiddenAttr().MatchString(attrs)
}

// stripComments replaces each <!-- ... -->, <?...> and <!...> with
// HiddenComment; the opener of a comment never closed with Unclosed. One
// that would hold code (a placeholder of maskCode) is left as it is.
func stripComments(s string) string {
	var b strings.Builder
	unclosed := map[string]bool{} // an end not found once is not found later
	for {
		i := nextComment(s)
		if i < 0 {
			if b.Len() == 0 {
				return s
			}
			b.WriteString(s)
			return b.String()
		}
		if b.Cap() == 0 {
			b.Grow(len(s) + 64)
		}
		b.WriteString(s[:i])
		s = s[i:]
		open, end := "<!--", "-->"
		if !strings.HasPrefix(s, open) {
			open, end = s[:2], ">"
		}
		j := -1
		if !unclosed[end] {
			j = strings.Index(s[len(open):], end)
		}
		if j < 0 {
			unclosed[end] = true
			b.WriteString(Unclosed("HTML comment"))
			s = s[len(open):]
			continue
		}
		if strings.Contains(s[:len(open)+j], codeOpen) {
			// Not a comment: one in a paragraph ends with it, and an HTML
			// block's holds no code, so a page shows both ends as text.
			b.WriteByte('<')
			s = s[1:]
			continue
		}
		b.WriteString(HiddenComment)
		s = s[len(open)+j+len(end):]
	}
}

// nextComment is where the next comment (<!--, <?, <! and a letter) in s
// starts, or -1.
func nextComment(s string) int {
	for off := 0; ; {
		i := strings.Index(s[off:], "<")
		if i < 0 {
			return -1
		}
		i += off
		if r := s[i+1:]; strings.HasPrefix(r, "!--") || strings.HasPrefix(r, "?") || strings.HasPrefix(r, "!") && len(r) > 1 && isLetter(r[1]) {
			return i
		}
		off = i + 1
	}
}

// closingEnd is where the element named tag that lower (lower-case) is
// inside ends: after its matching closing tag, counting nested elements
// of the same name, or -1 when it is never closed.
func closingEnd(lower, tag string) int {
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
				return -1
			}
		case strings.HasPrefix(rest, tag) && tagEnds(rest[len(tag):]):
			depth++
		}
		i++
	}
	return -1
}

func tagEnds(s string) bool {
	return s == "" || s[0] == '>' || s[0] == ' ' || s[0] == '\t' || s[0] == '\n' || s[0] == '/'
}

// asciiLower lowers ASCII letters only, keeping every offset (a tag's
// name is ASCII; strings.ToLower may change a text's length).
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 0x20
		}
	}
	return string(b)
}
