package markdown

import (
	"strconv"
	"strings"
)

// The block parser is CommonMark's line-at-a-time algorithm: each line first
// matches the open containers (blockquotes, list items), may open new ones,
// then continues or starts a leaf block. Output is written as blocks finish
// (and paragraphs as their lines settle, see peek), never revised, so the
// same machinery serves Render and Stream.

type kind uint8

const (
	kDoc kind = iota
	kQuote
	kItem
)

type container struct {
	kind       kind
	indent     int   // kItem: columns a line needs to continue the item
	list       *list // kItem: the list it belongs to
	marker     []seg // kItem: shown on the item's first line
	mwidth     int   // kItem: width of the marker and the space after it
	pending    bool  // kItem: marker not shown yet
	blankFirst bool  // kItem: began with a blank line
	content    bool  // something was opened inside
	last       *list // the list a new item here would continue, if any
}

type list struct {
	ordered bool
	ch      byte // bullet character, or the delimiter after the number
	next    int  // number of the next item
	depth   int  // nesting among lists, for the bullet glyph
}

type leafKind uint8

const (
	leafNone leafKind = iota
	leafPara
	leafFence
	leafIndented
	leafTable
	leafHTML
)

type renderer struct {
	o        Options
	pal      palette
	sgrCache map[style]string
	out      []byte // rendered lines not yet handed on

	stack []*container
	leaf  leafKind
	para  paragraph
	fence struct {
		ch        byte
		n, indent int
	}
	htmlKind   int // leafHTML: the block's kind, 1–7 (see html.go)
	codeBlanks int // blank lines held inside an indented code block
	tbl        *table

	sawBlank   bool  // a blank line since the last block began
	lastPath   []any // containers (and lists) of the last block begun
	emitted    bool  // any line written
	sepPending bool  // the current block owes a blank line before its first
	sepDepth   int   // containers the blank line is inside: those shared with the last block
	scratch    []seg // reused for each output line
	ip         inlineParser
	us         []unit // buffers reused by wrap
	all        []seg
	wrapOut    []seg
	wrapLines  [][]seg
	bounds     []int
}

func newRenderer(o Options) *renderer {
	if o.Width <= 0 {
		o.Width = 80
	}
	return &renderer{o: o, pal: paletteFor(o.Dark), stack: []*container{{kind: kDoc}}}
}

func (r *renderer) top() *container { return r.stack[len(r.stack)-1] }

func (r *renderer) write(segs []seg) {
	r.out = append(r.paint(r.out, segs), '\n')
	r.emitted = true
}

// prefix is what the open containers put before a line: quote bars, list
// markers on an item's first line, indentation on its others.
func (r *renderer) prefix(first bool, depth int) []seg {
	segs := r.scratch[:0]
	for _, c := range r.stack[1:depth] {
		switch c.kind {
		case kQuote:
			segs = append(segs, seg{text: "│", st: stQuote}, seg{text: " "})
		case kItem:
			if first && c.pending {
				segs = append(segs, c.marker...)
				c.pending = false
			} else {
				segs = append(segs, seg{text: strings.Repeat(" ", c.mwidth)})
			}
		}
	}
	return segs
}

func (r *renderer) prefixWidth() int {
	w := 0
	for _, c := range r.stack[1:] {
		if c.kind == kQuote {
			w += 2
		} else {
			w += c.mwidth
		}
	}
	return w
}

// avail is the width left for a block's text inside its containers.
func (r *renderer) avail() int { return max(1, r.o.Width-r.prefixWidth()) }

func (r *renderer) emitLine(content []seg) {
	if r.sepPending {
		r.sepPending = false
		r.write(trimRight(r.prefix(false, r.sepDepth)))
	}
	line := append(r.prefix(true, len(r.stack)), content...)
	r.write(trimRight(line))
	r.scratch = line[:0]
}

func (r *renderer) path() []any {
	p := make([]any, 0, 2*len(r.stack))
	for _, c := range r.stack {
		if c.kind == kItem {
			p = append(p, c.list)
		}
		p = append(p, c)
	}
	return p
}

// beginBlock decides the blank line before a new block: always between
// blocks of the document or a blockquote; between items of a list, and
// blocks inside an item, only where the source had one (a tight list stays
// tight). The decision uses only what came before, so a stream can make it.
func (r *renderer) beginBlock() {
	path := r.path()
	sep, depth := false, 1
	if r.emitted {
		i := 0
		for i < len(path) && i < len(r.lastPath) && path[i] == r.lastPath[i] {
			if _, ok := path[i].(*container); ok && i > 0 {
				depth++
			}
			i++
		}
		tight := false
		switch x := path[max(i, 1)-1].(type) {
		case *list:
			tight = true
		case *container:
			tight = x.kind == kItem
		}
		sep = !tight || r.sawBlank
	}
	r.top().content = true
	r.top().last = nil
	r.lastPath, r.sawBlank, r.sepPending, r.sepDepth = path, false, sep, depth
}

// line processes one complete line: sanitised, tabs expanded, no newline.
func (r *renderer) line(s string) {
	r.apply(r.classify(s), s, false)
}

func (r *renderer) apply(pl plan, s string, live bool) {
	if pl.action == actLazy {
		r.paraAdd(s[pl.pos:], live)
		return
	}
	if pl.matched < len(r.stack) {
		r.closeTo(pl.matched)
	}
	if len(pl.opens) > 0 {
		r.closeLeaf()
		for _, op := range pl.opens {
			r.open(op)
		}
	}
	text := s[pl.pos:]
	switch pl.action {
	case actBlank:
		switch r.leaf {
		case leafPara, leafTable, leafHTML:
			r.closeLeaf()
		case leafIndented:
			r.codeBlanks++
		}
		// A line that only opens an empty item is not a blank line.
		r.sawBlank = len(pl.opens) == 0
	case actFenceLine:
		ind, _ := indentOf(s, pl.pos)
		r.codeLine(s[pl.pos+min(ind, r.fence.indent):])
	case actFenceClose:
		r.leaf = leafNone
	case actIndented:
		if r.leaf != leafIndented {
			r.closeLeaf()
			r.beginBlock()
			r.leaf = leafIndented
		}
		for ; r.codeBlanks > 0; r.codeBlanks-- {
			r.codeLine("")
		}
		r.sawBlank = false
		r.codeLine(text)
	case actPara:
		if r.leaf == leafPara && len(pl.opens) == 0 {
			r.paraAdd(text, live)
			return
		}
		r.closeLeaf()
		top := r.top()
		task := top.kind == kItem && !top.content
		r.beginBlock()
		r.leaf = leafPara
		r.para = paragraph{task: task}
		r.paraAdd(text, live)
	case actSetext:
		lines := r.para.lines
		r.leaf = leafNone
		r.heading(pl.level, strings.TrimRight(splitDefs(strings.Join(lines, "\n"), r.define), " "))
	case actTableDelim:
		r.tableStart(text)
	case actTableRow:
		r.tbl.rows = append(r.tbl.rows, splitRow(text))
	case actFenceOpen:
		r.closeLeaf()
		r.beginBlock()
		r.fence.ch, r.fence.n, r.fence.indent = text[0], fenceOpen(text), pl.ind
		r.leaf = leafFence
	case actATX:
		r.closeLeaf()
		r.beginBlock()
		r.heading(pl.level, atxText(text, pl.level))
	case actHTMLStart:
		r.closeLeaf()
		r.beginBlock()
		r.leaf, r.htmlKind = leafHTML, pl.level
		r.htmlLine(text)
	case actHTMLLine:
		r.htmlLine(text)
	case actHR:
		r.closeLeaf()
		r.beginBlock()
		r.emitLine([]seg{{text: strings.Repeat("─", r.avail()), st: stRule}})
	}
}

func (r *renderer) open(op opening) {
	parent := r.top()
	c := &container{kind: op.kind}
	if op.kind == kQuote {
		parent.last = nil
		parent.content = true
		r.stack = append(r.stack, c)
		return
	}
	l := parent.last
	if l == nil || l.ordered != op.ordered || l.ch != op.ch {
		depth := 0
		for _, x := range r.stack {
			if x.kind == kItem {
				depth++
			}
		}
		l = &list{ordered: op.ordered, ch: op.ch, next: op.start, depth: depth}
	}
	parent.last = l
	parent.content = true
	c.list, c.indent, c.blankFirst, c.pending = l, op.indent, op.blank, true
	if l.ordered {
		c.marker = []seg{{text: strconv.Itoa(l.next) + string(l.ch), st: stBullet}, {text: " "}}
		l.next++
	} else {
		c.marker = []seg{{text: bullets[l.depth%3], st: stBullet}, {text: " "}}
	}
	c.mwidth = segsWidth(c.marker)
	r.stack = append(r.stack, c)
}

// bullets mark unordered items by nesting depth.
var bullets = [3]string{"•", "◦", "▪"}

// closeTo closes containers down to n of them (and any open leaf).
func (r *renderer) closeTo(n int) {
	r.closeLeaf()
	for len(r.stack) > n {
		c := r.top()
		if c.kind == kItem && c.pending {
			// An empty item still shows its marker.
			r.beginBlock()
			r.emitLine(nil)
		}
		r.stack = r.stack[:len(r.stack)-1]
	}
}

func (r *renderer) closeLeaf() {
	switch r.leaf {
	case leafPara:
		r.paraFlush()
	case leafTable:
		r.tableFlush()
	}
	r.leaf = leafNone
	r.codeBlanks = 0
}

func (r *renderer) finish() { r.closeTo(1) }

func (r *renderer) codeLine(text string) {
	r.emitLine([]seg{{text: "  "}, {text: text, st: stCodeBlock}})
}

// htmlLine shows a line of an HTML block as written, and ends a block of
// kinds 1–5 at its end marker.
func (r *renderer) htmlLine(text string) {
	r.emitLine([]seg{{text: text}})
	if r.htmlKind <= 5 && htmlEnds(r.htmlKind, text) {
		r.leaf = leafNone
	}
}

func (r *renderer) heading(level int, text string) {
	st := stHeading
	if level == 1 {
		st |= stH1
	}
	marks := strings.Repeat("#", level) + " "
	res := r.ip.parse(text, st)
	for i, l := range r.wrap(res.segs, r.avail()-len(marks)) {
		lead := seg{text: marks, st: stHeading}
		if i > 0 {
			lead = seg{text: strings.Repeat(" ", len(marks))}
		}
		r.emitLine(append([]seg{lead}, l...))
	}
}
