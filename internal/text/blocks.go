package text

import (
	"regexp"
	"strings"
	"sync"
)

// codeBlocks finds the code blocks of markdown s as CommonMark's block
// structure makes them: fenced code blocks and indented code blocks (a
// chunk of lines indented 4 or more columns, tabs to stops of 4), in
// block quotes and list items too, counting indentation from the
// container's content column. What CommonMark does not make code is not
// code here either: a line indented 4 or more that continues a
// paragraph, or is inside an HTML block; a list item's paragraph indented
// under its marker. Each block is a range of s, from the start of its
// first line to the end of its last line (its line ending left out), with
// the fence lines; the blank lines that end an indented block are not in
// it.
//
// It follows the block rules only as far as they decide what is code:
// headings and thematic breaks are told from paragraphs; a GFM table and
// link reference definitions are read as the paragraph they start as (an
// indented line after a table's row is a row in GFM, not code, as it is
// a continuation here).
func codeBlocks(s string) [][2]int {
	var b blockScanner
	for at := 0; at < len(s); {
		// A line ends in LF, CR LF or CR.
		end := strings.IndexAny(s[at:], "\r\n")
		next := len(s)
		if end < 0 {
			end = len(s)
		} else {
			end += at
			next = end + 1
			if strings.HasPrefix(s[end:], "\r\n") {
				next++
			}
		}
		b.line(at, end, s[at:end])
		at = next
	}
	b.closeCode()
	return b.blocks
}

// container is an open block quote or list item.
type container struct {
	quote bool
	// width is the columns a line needs to continue a list item, counted
	// from where the item's own matching starts.
	width int
	// blankStart: the item's first line held only its marker; content:
	// a line has put something in it since.
	blankStart, content bool
}

type leafKind uint8

const (
	leafNone leafKind = iota
	leafPara
	leafFence
	leafHTML
	leafIndented
)

type blockScanner struct {
	stack []container
	opens []container // the line's, reused
	leaf  leafKind
	// the open fence: its character and length
	fenceCh  byte
	fenceN   int
	htmlKind int // the open HTML block's kind, 1-7
	// codeFrom is where the open code block starts, codeTo where its last
	// code line ends (an indented block's blank lines wait to be in it).
	codeFrom, codeTo int
	blocks           [][2]int
}

// cursor walks a line by columns: a tab advances to the next multiple
// of 4 and may be consumed in part (col is then inside it).
type cursor struct {
	s        string
	pos, col int
	// tail is where the line's trailing spaces and tabs start: from there
	// it is blank.
	tail int
	// other holds, for '*', '-' and '_', the last index of a character
	// that is neither it nor a space or tab (-1: none): past it the line
	// may be a thematic break of that character.
	other [3]int
}

func newCursor(s string) cursor {
	c := cursor{s: s, tail: len(strings.TrimRight(s, " \t")), other: [3]int{-1, -1, -1}}
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' || s[i] == '\t' {
			continue
		}
		for k := range len(breakChars) {
			if s[i] != breakChars[k] {
				c.other[k] = i
			}
		}
	}
	return c
}

const breakChars = "*-_"

// breakAt reports whether the line from p is a thematic break, without
// reading it again for each list marker of a line of them ("- - - x").
func (c cursor) breakAt(p int) bool {
	k := strings.IndexByte(breakChars, c.s[p])
	return k >= 0 && c.other[k] < p && ThematicBreak(c.s[p:])
}

// blank reports whether the line is blank from the cursor on.
func (c cursor) blank() bool { return c.pos >= c.tail }

// indentMax is indent, looking no further than limit columns: a line's
// containers are matched without reading its indentation again for each.
func (c cursor) indentMax(limit int) (cols, p int) {
	d := c
	for d.pos < len(d.s) && d.col-c.col < limit && (d.s[d.pos] == ' ' || d.s[d.pos] == '\t') {
		d.to(d.pos + 1)
	}
	return d.col - c.col, d.pos
}

// indent is the columns of spaces and tabs from the cursor to the next
// other character, and that character's index (len(s) on a blank line).
func (c cursor) indent() (cols, p int) {
	d := c
	for d.pos < len(d.s) && (d.s[d.pos] == ' ' || d.s[d.pos] == '\t') {
		d.to(d.pos + 1)
	}
	return d.col - c.col, d.pos
}

// to moves the cursor to p, over what is left of a tab it is inside.
func (c *cursor) to(p int) {
	for ; c.pos < p; c.pos++ {
		if c.s[c.pos] == '\t' {
			c.col += 4 - c.col%4
		} else {
			c.col++
		}
	}
}

// skip consumes n columns of indentation, a tab in part if need be.
func (c *cursor) skip(n int) {
	for n > 0 && c.pos < len(c.s) {
		w := 1
		if c.s[c.pos] == '\t' {
			w = 4 - c.col%4
		}
		if w > n {
			c.col += n
			return
		}
		c.to(c.pos + 1)
		n -= w
	}
}

// quote consumes a block quote marker at p and the space after it.
func (c *cursor) quote(p int) {
	c.to(p)
	c.pos, c.col = p+1, c.col+1
	if c.pos < len(c.s) && (c.s[c.pos] == ' ' || c.s[c.pos] == '\t') {
		c.skip(1)
	}
}

// What a line starts, once its containers are matched and opened.
type lineKind uint8

const (
	lineBlank lineKind = iota
	lineText           // paragraph text: a new paragraph or a continuation
	lineCode           // the first line of an indented code block
	lineFence
	lineHTML
	lineOther // a heading, a thematic break: ends a paragraph
)

// line takes one line, text (its line ending left out), which spans
// s[start:end].
func (b *blockScanner) line(start, end int, text string) {
	c := newCursor(text)
	matched := b.match(&c)
	all := matched == len(b.stack)
	ind, p := c.indent()
	if all && b.inLeaf(end, text[c.pos:], ind, p == len(text)) {
		return
	}
	para := b.leaf == leafPara
	opens, kind := b.open(&c, para, all)
	ind, p = c.indent()
	rest := text[p:]
	if kind != lineCode {
		kind = b.starts(rest, ind, para && len(opens) == 0, para && all && len(opens) == 0)
	}
	if para && len(opens) == 0 && kind == lineText {
		if !all {
			return // a lazy continuation: the containers stay open
		}
		b.markContent()
		return
	}
	b.closeCode()
	b.leaf = leafNone
	b.stack = append(b.stack[:matched], opens...)
	if kind != lineBlank {
		b.markContent()
	}
	switch kind {
	case lineText:
		b.leaf = leafPara
	case lineCode, lineFence:
		b.leaf, b.codeFrom, b.codeTo = leafIndented, start, end
		if kind == lineFence {
			b.leaf = leafFence
		}
	case lineHTML:
		if !htmlEnds(b.htmlKind, rest) {
			b.leaf = leafHTML
		}
	}
}

// open opens the containers a line starts at c (block quotes, list
// items), into b.opens, moving c to their content; the kind is lineCode
// when that content is indented code, else lineText (to be decided by
// starts). A paragraph (para) goes on unless the line starts a block
// that may interrupt it; one whose containers all match (all) is not
// interrupted by an empty list item or one numbered from other than 1.
func (b *blockScanner) open(c *cursor, para, all bool) ([]container, lineKind) {
	opens := b.opens[:0]
	defer func() { b.opens = opens[:0] }() // reused: none allocates after the first
	interrupts := para && all
	for {
		ind, p := c.indent()
		if ind >= 4 {
			if p < len(c.s) && (!para || len(opens) > 0) {
				return opens, lineCode
			}
			return opens, lineText
		}
		if p < len(c.s) && c.s[p] == '>' {
			c.quote(p)
			opens = append(opens, container{quote: true})
			continue
		}
		if p == len(c.s) || c.breakAt(p) || interrupts && len(opens) == 0 && setextLine(c.s[p:]) {
			return opens, lineText
		}
		item, ok := listItem(c, p, interrupts && len(opens) == 0)
		if !ok {
			return opens, lineText
		}
		opens = append(opens, item)
		if item.blankStart {
			return opens, lineText
		}
	}
}

// starts is what a line's content, rest, indented ind, starts: cont says
// it may continue a paragraph (a paragraph is open and the line opened no
// container), interrupts that all of that paragraph's containers match.
func (b *blockScanner) starts(rest string, ind int, cont, interrupts bool) lineKind {
	switch {
	case rest == "":
		return lineBlank
	case ind >= 4:
		return lineText // a paragraph's, continued
	case fenceOpen(rest) > 0:
		b.fenceCh, b.fenceN = rest[0], fenceOpen(rest)
		return lineFence
	case htmlStart(rest, cont) > 0: // kind 7 interrupts no paragraph, not even a lazy one
		b.htmlKind = htmlStart(rest, cont)
		return lineHTML
	case ThematicBreak(rest) || atxHeading(rest) || interrupts && setextLine(rest):
		return lineOther
	}
	return lineText
}

// inLeaf takes a line all of whose containers match into the code or
// HTML block open, if it belongs there: rest is the line after its
// containers, ind and blank its indentation and whether it is blank.
func (b *blockScanner) inLeaf(end int, rest string, ind int, blank bool) bool {
	switch b.leaf {
	case leafFence:
		b.codeTo = end
		if t := strings.TrimLeft(rest, " \t"); ind <= 3 && closesFence(t, b.fenceCh, b.fenceN) {
			b.closeCode()
		}
		return true
	case leafHTML:
		if blank && b.htmlKind >= 6 {
			b.leaf = leafNone
			return false
		}
		if htmlEnds(b.htmlKind, rest) {
			b.leaf = leafNone
		}
		return true
	case leafIndented:
		if blank {
			return true // in the block if more code follows
		}
		if ind >= 4 {
			b.codeTo = end
			return true
		}
	}
	return false
}

func (b *blockScanner) markContent() {
	for i := range b.stack {
		b.stack[i].content = true
	}
}

// match continues the open containers the line matches, in order: how
// many.
func (b *blockScanner) match(c *cursor) int {
	for m, ct := range b.stack {
		switch {
		case ct.quote:
			ind, p := c.indentMax(4)
			if ind > 3 || p == len(c.s) || c.s[p] != '>' {
				return m
			}
			c.quote(p)
		case c.blank():
			if ct.blankStart && !ct.content {
				return m // an item starts with at most one blank line
			}
		default:
			if ind, _ := c.indentMax(ct.width); ind < ct.width {
				return m
			}
			c.skip(ct.width)
		}
	}
	return len(b.stack)
}

// listItem opens the list item whose marker is at p, moving c to its
// content. A paragraph (para) is interrupted only by an item with
// content, and an ordered one only from 1.
func listItem(c *cursor, p int, para bool) (container, bool) {
	s := c.s
	q := p
	if s[q] == '-' || s[q] == '+' || s[q] == '*' {
		q++
	} else {
		for q < len(s) && q-p < 9 && s[q] >= '0' && s[q] <= '9' {
			q++
		}
		if q == p || q == len(s) || s[q] != '.' && s[q] != ')' || para && s[p:q] != "1" {
			return container{}, false
		}
		q++
	}
	if q < len(s) && s[q] != ' ' && s[q] != '\t' {
		return container{}, false
	}
	d := *c
	d.to(q) // the marker, as wide as its bytes
	w := d.col - c.col
	n, r := d.indent()
	if r == len(s) && para {
		return container{}, false
	}
	*c = d
	switch {
	case r == len(s):
		c.to(r)
		return container{width: w + 1, blankStart: true}, true
	case n >= 5: // the content is indented code: the item's starts one column in
		c.skip(1)
		return container{width: w + 1}, true
	}
	c.skip(n)
	return container{width: w + n}, true
}

// closeCode ends the open code block, keeping its range.
func (b *blockScanner) closeCode() {
	if b.leaf == leafIndented || b.leaf == leafFence {
		b.blocks = append(b.blocks, [2]int{b.codeFrom, b.codeTo})
		b.leaf = leafNone
	}
}

// fenceOpen is the length of the code fence s (after indentation) opens,
// or 0.
func fenceOpen(s string) int {
	if s == "" || s[0] != '`' && s[0] != '~' {
		return 0
	}
	n := run(s, s[0])
	if n < 3 || s[0] == '`' && strings.Contains(s[n:], "`") {
		return 0
	}
	return n
}

// closesFence reports whether s (after indentation) closes a fence of n
// characters c.
func closesFence(s string, c byte, n int) bool {
	m := run(s, c)
	return m >= n && strings.Trim(s[m:], " \t") == ""
}

// ThematicBreak reports whether s (a line after its indentation) is a
// CommonMark thematic break: three or more *, - or _ and nothing else but
// spaces and tabs. internal/markdown's renderer asks it too.
func ThematicBreak(s string) bool {
	if s == "" || s[0] != '*' && s[0] != '-' && s[0] != '_' {
		return false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case s[0]:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// setextLine reports whether s underlines a paragraph into a heading.
func setextLine(s string) bool {
	if s == "" || s[0] != '=' && s[0] != '-' {
		return false
	}
	return strings.Trim(s[run(s, s[0]):], " \t") == ""
}

func atxHeading(s string) bool {
	n := run(s, '#')
	return n >= 1 && n <= 6 && (n == len(s) || s[n] == ' ' || s[n] == '\t')
}

// htmlStart is the kind (1-7) of the HTML block s (after indentation)
// starts, or 0; kind 7 cannot interrupt a paragraph (para).
func htmlStart(s string, para bool) int {
	if len(s) < 2 || s[0] != '<' {
		return 0
	}
	lower := asciiLower(s)
	switch {
	case startsTag(lower[1:], "script", "pre", "style", "textarea"):
		return 1
	case strings.HasPrefix(lower, "<!--"):
		return 2
	case strings.HasPrefix(lower, "<?"):
		return 3
	case strings.HasPrefix(lower, "<![cdata["):
		return 5
	case strings.HasPrefix(lower, "<!") && len(lower) > 2 && isLetter(lower[2]):
		return 4
	}
	name := strings.TrimPrefix(lower[1:], "/")
	for _, t := range blockTags {
		if strings.HasPrefix(name, t) && (len(name) == len(t) || strings.ContainsRune(" \t>", rune(name[len(t)])) || strings.HasPrefix(name[len(t):], "/>")) {
			return 6
		}
	}
	if !para && completeTag().MatchString(s) {
		return 7
	}
	return 0
}

// startsTag reports whether s starts with one of the names followed by
// a space, a tab, '>' or the end of the line.
func startsTag(s string, names ...string) bool {
	for _, n := range names {
		if strings.HasPrefix(s, n) && (len(s) == len(n) || strings.ContainsRune(" \t>", rune(s[len(n)]))) {
			return true
		}
	}
	return false
}

// htmlEnds reports whether a line of an HTML block of kind k ends it.
func htmlEnds(k int, line string) bool {
	switch k {
	case 1:
		l := asciiLower(line)
		return strings.Contains(l, "</script>") || strings.Contains(l, "</pre>") || strings.Contains(l, "</style>") || strings.Contains(l, "</textarea>")
	case 2:
		return strings.Contains(line, "-->")
	case 3:
		return strings.Contains(line, "?>")
	case 4:
		return strings.Contains(line, ">")
	case 5:
		return strings.Contains(line, "]]>")
	}
	return false
}

// blockTags start an HTML block of kind 6 (CommonMark 0.31).
var blockTags = []string{"address", "article", "aside", "base", "basefont", "blockquote", "body",
	"caption", "center", "col", "colgroup", "dd", "details", "dialog", "dir", "div", "dl", "dt",
	"fieldset", "figcaption", "figure", "footer", "form", "frame", "frameset",
	"h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html", "iframe",
	"legend", "li", "link", "main", "menu", "menuitem", "meta", "nav", "noframes",
	"ol", "optgroup", "option", "p", "param", "search", "section", "summary",
	"table", "tbody", "td", "tfoot", "th", "thead", "title", "tr", "track", "ul"}

// completeTag matches a line that is one whole open or closing tag and
// nothing else: an HTML block of kind 7. It is compiled on first use,
// and its sync.Once is a zero value: nothing runs when forge starts.
func completeTag() *regexp.Regexp {
	completeTagOnce.Do(func() {
		const attr = `(?:[ \t]+[A-Za-z_:][A-Za-z0-9_.:-]*(?:[ \t]*=[ \t]*(?:[^ \t"'=<>` + "`" + `]+|'[^']*'|"[^"]*"))?)`
		completeTagRE = regexp.MustCompile(`^(?:<[A-Za-z][A-Za-z0-9-]*` + attr + `*[ \t]*/?>|</[A-Za-z][A-Za-z0-9-]*[ \t]*>)[ \t]*$`)
	})
	return completeTagRE
}

var (
	completeTagOnce sync.Once
	completeTagRE   *regexp.Regexp
)
