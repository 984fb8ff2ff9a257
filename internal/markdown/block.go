package markdown

import (
	"strconv"
	"strings"
	"unicode/utf8"
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
)

type paragraph struct {
	lines   []string // each source line's text, leading blanks removed
	live    bool     // the last line is still arriving (Stream only)
	emitted int      // output lines already written
	task    bool     // first block of a list item: may start with a task box
	peekLen int      // text length when last peeked
}

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

// ---- output ----

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

// ---- line classification ----

type action uint8

const (
	actBlank action = iota
	actFenceLine
	actFenceClose
	actIndented
	actPara   // paragraph text: a new paragraph or a continuation
	actLazy   // paragraph continuation with containers unmatched
	actSetext // underline turning the paragraph into a heading
	actTableDelim
	actTableRow
	actFenceOpen
	actATX
	actHR
)

type opening struct {
	kind    kind
	indent  int
	ordered bool
	ch      byte
	start   int
	blank   bool
}

// plan is what a line will do, decided before anything changes, so that a
// stream can classify a line still arriving and act only once its meaning
// cannot change.
type plan struct {
	matched int
	opens   []opening
	action  action
	pos     int // where the leaf's text starts
	ind     int // the leaf's indentation (a fence's, to remove from its lines)
	level   int // heading level
}

func indentOf(s string, pos int) (cols, p int) {
	p = pos
	for p < len(s) && s[p] == ' ' {
		p++
	}
	return p - pos, p
}

func (r *renderer) classify(s string) plan {
	var pl plan
	pos := 0
	m := 1
	for ; m < len(r.stack); m++ {
		c := r.stack[m]
		ind, p := indentOf(s, pos)
		if c.kind == kQuote {
			if ind <= 3 && p < len(s) && s[p] == '>' {
				pos = p + 1
				if pos < len(s) && s[pos] == ' ' {
					pos++
				}
				continue
			}
			break
		}
		if p >= len(s) {
			// A blank line continues an item, unless the item began blank
			// and is still empty: an item starts with at most one blank.
			if c.blankFirst && !c.content {
				break
			}
			pos = p
			continue
		}
		if ind >= c.indent {
			pos += c.indent
			continue
		}
		break
	}
	pl.matched = m
	all := m == len(r.stack)
	if r.leaf == leafFence && all {
		ind, p := indentOf(s, pos)
		if ind <= 3 && closesFence(s[p:], r.fence.ch, r.fence.n) {
			pl.action = actFenceClose
			return pl
		}
		pl.action, pl.pos = actFenceLine, pos
		return pl
	}
	para := r.leaf == leafPara
	for {
		ind, p := indentOf(s, pos)
		if ind >= 4 || p >= len(s) {
			break
		}
		if s[p] == '>' {
			pl.opens = append(pl.opens, opening{kind: kQuote})
			pos = p + 1
			if pos < len(s) && s[pos] == ' ' {
				pos++
			}
			continue
		}
		if isThematicBreak(s[p:]) {
			break
		}
		if para && all && len(pl.opens) == 0 && setextLevel(s[p:]) > 0 {
			break
		}
		op, content, ok := listMarker(s, p)
		if !ok {
			break
		}
		if para && all && len(pl.opens) == 0 && (op.blank || op.ordered && op.start != 1) {
			break // such items cannot interrupt a paragraph
		}
		op.indent += p - pos
		pl.opens = append(pl.opens, op)
		pos = content
		if op.blank {
			break
		}
	}
	ind, p := indentOf(s, pos)
	pl.pos, pl.ind = p, ind
	cont := para && len(pl.opens) == 0 // the line may continue the paragraph
	switch {
	case p >= len(s):
		pl.action = actBlank
	case ind >= 4 && !cont:
		pl.action, pl.pos = actIndented, pos+4
	case ind >= 4:
		pl.action = actPara
	default:
		rest := s[p:]
		if cont && all {
			if lv := setextLevel(rest); lv > 0 && r.paraRunes() <= r.o.Width {
				pl.action, pl.level = actSetext, lv
				return pl
			}
			if last := len(r.para.lines) - 1; isDelimRow(rest) && r.headerFits(last) &&
				len(splitRow(rest)) == len(splitRow(r.para.lines[last])) {
				pl.action = actTableDelim
				return pl
			}
		}
		if r.leaf == leafTable && all && len(pl.opens) == 0 && !startsBlock(rest) {
			pl.action = actTableRow
			return pl
		}
		switch {
		case fenceOpen(rest) > 0:
			pl.action = actFenceOpen
		case atxLevel(rest) > 0:
			pl.action, pl.level = actATX, atxLevel(rest)
		case isThematicBreak(rest):
			pl.action = actHR
		default:
			pl.action = actPara
		}
	}
	return r.lazy(pl, all)
}

// lazy turns paragraph text under unmatched containers into a lazy
// continuation of the open paragraph.
func (r *renderer) lazy(pl plan, all bool) plan {
	if pl.action == actPara && !all && r.leaf == leafPara && len(pl.opens) == 0 {
		pl.action = actLazy
	}
	return pl
}

// startsBlock reports whether text (after indentation) opens a block that
// ends a table.
func startsBlock(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == '>' || fenceOpen(s) > 0 || atxLevel(s) > 0 || isThematicBreak(s) {
		return true
	}
	_, _, ok := listMarker(s, 0)
	return ok
}

// safeStart reports whether paragraph text beginning with s stays paragraph
// text whatever the rest of its line: what has arrived already rules out a
// heading, fence, rule, list item, setext underline and table delimiter row.
// A stream waits for the rest of a line only while this is false.
func safeStart(s string) bool {
	if s == "" {
		return false
	}
	switch c := s[0]; {
	case c == ' ':
		return false
	case strings.IndexByte("*-+_=:|", c) >= 0:
		// A bullet needs a space after it; rules, underlines and delimiter
		// rows are made of these characters and spaces only.
		if (c == '*' || c == '-' || c == '+') && (len(s) == 1 || s[1] == ' ') {
			return false
		}
		return strings.IndexFunc(s, func(r rune) bool { return !strings.ContainsRune("*-+_=:| ", r) }) >= 0
	case c == '#':
		n := 0
		for n < len(s) && s[n] == '#' {
			n++
		}
		return n < len(s) && (n > 6 || s[n] != ' ')
	case c == '`' || c == '~':
		n := 0
		for n < len(s) && s[n] == c {
			n++
		}
		return n < 3 && n < len(s)
	case isDigit(c):
		i := 0
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		switch {
		case i > 9:
			return true
		case i == len(s):
			return false
		case s[i] != '.' && s[i] != ')':
			return true
		}
		return i+1 < len(s) && s[i+1] != ' '
	}
	return true
}

func listMarker(s string, p int) (op opening, content int, ok bool) {
	op.kind = kItem
	w := 0
	switch {
	case p < len(s) && (s[p] == '-' || s[p] == '*' || s[p] == '+'):
		op.ch, w = s[p], 1
	case p < len(s) && isDigit(s[p]):
		i := p
		for i < len(s) && isDigit(s[i]) && i-p < 10 {
			i++
		}
		if i-p > 9 || i >= len(s) || (s[i] != '.' && s[i] != ')') {
			return op, 0, false
		}
		n, _ := strconv.Atoi(s[p:i])
		op.ordered, op.ch, op.start, w = true, s[i], n, i-p+1
	default:
		return op, 0, false
	}
	after := p + w
	if after < len(s) && s[after] != ' ' {
		return op, 0, false
	}
	sp, q := indentOf(s, after)
	switch {
	case q >= len(s):
		op.blank = true
		op.indent = w + 1
		return op, len(s), true
	case sp >= 5:
		op.indent = w + 1
		return op, after + 1, true
	default:
		op.indent = w + sp
		return op, q, true
	}
}

func isThematicBreak(s string) bool {
	if s == "" || (s[0] != '-' && s[0] != '*' && s[0] != '_') {
		return false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case s[0]:
			n++
		case ' ':
		default:
			return false
		}
	}
	return n >= 3
}

func setextLevel(s string) int {
	if s == "" || (s[0] != '=' && s[0] != '-') {
		return 0
	}
	i := 0
	for i < len(s) && s[i] == s[0] {
		i++
	}
	if strings.TrimRight(s[i:], " ") != "" {
		return 0
	}
	if s[0] == '=' {
		return 1
	}
	return 2
}

func atxLevel(s string) int {
	i := 0
	for i < len(s) && s[i] == '#' {
		i++
	}
	if i == 0 || i > 6 || (i < len(s) && s[i] != ' ') {
		return 0
	}
	return i
}

// atxText is a heading's text without its #s and closing sequence.
func atxText(s string, level int) string {
	t := strings.Trim(s[level:], " ")
	if strings.Trim(t, "#") == "" {
		return ""
	}
	if j := strings.TrimRight(t, "#"); len(j) < len(t) && strings.HasSuffix(j, " ") {
		t = strings.TrimRight(j, " ")
	}
	return t
}

// fenceOpen returns the length of an opening code fence, or 0.
func fenceOpen(s string) int {
	if s == "" || (s[0] != '`' && s[0] != '~') {
		return 0
	}
	n := 0
	for n < len(s) && s[n] == s[0] {
		n++
	}
	if n < 3 || s[0] == '`' && strings.IndexByte(s[n:], '`') >= 0 {
		return 0
	}
	return n
}

func closesFence(s string, ch byte, n int) bool {
	i := 0
	for i < len(s) && s[i] == ch {
		i++
	}
	return i >= n && strings.TrimRight(s[i:], " ") == ""
}

// ---- applying a line ----

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
		case leafPara, leafTable:
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
		r.heading(pl.level, strings.TrimRight(strings.Join(lines, "\n"), " "))
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
	// A new item is an item in its list, not a block of its own: the blank
	// line before it is decided as for any block in the list.
}

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

// ---- paragraphs ----

func (r *renderer) paraAdd(text string, live bool) {
	r.para.lines = append(r.para.lines, text)
	r.para.live = live
}

// paraText is the paragraph's text, without a task box, which it turns into
// the item's marker.
func (r *renderer) paraText() string {
	text := strings.Join(r.para.lines, "\n")
	if r.para.task && len(text) >= 4 && text[0] == '[' && text[2] == ']' && text[3] == ' ' &&
		(text[1] == ' ' || text[1] == 'x' || text[1] == 'X') {
		c := r.top()
		if c.pending {
			box, st := "[ ]", stBullet
			if text[1] != ' ' {
				box, st = "[✓]", stTaskDone
			}
			if c.list.ordered {
				c.marker = append(c.marker[:1:1], seg{text: " "}, seg{text: box, st: st}, seg{text: " "})
			} else {
				c.marker = []seg{{text: box, st: st}, {text: " "}}
			}
			c.mwidth = segsWidth(c.marker)
		}
		text = text[4:]
	}
	return text
}

// paraRunes is the paragraph's length in characters: the measure that
// decides, for both Render and Stream, whether a setext underline can still
// make it a heading (see peek).
func (r *renderer) paraRunes() int {
	n := len(r.para.lines) - 1
	for _, l := range r.para.lines {
		n += utf8.RuneCountInString(l)
	}
	return n
}

func (r *renderer) paraFlush() {
	if len(r.para.lines) == 0 {
		return
	}
	text := strings.TrimRight(r.paraText(), " ")
	lines := r.wrap(r.ip.parse(text, 0).segs, r.avail())
	for _, l := range lines[min(r.para.emitted, len(lines)):] {
		r.emitLine(l)
	}
	r.para = paragraph{}
}

// headerFits reports whether paragraph line i can be a table's header row:
// it has an unescaped "|" within the first Width characters. The limit lets
// a stream show a long line before it ends (see peek).
func (r *renderer) headerFits(i int) bool {
	if i < 0 || i >= len(r.para.lines) {
		return false
	}
	p := firstPipe(r.para.lines[i])
	return p >= 0 && utf8.RuneCountInString(r.para.lines[i][:p]) <= r.o.Width
}

// mayBeHeader is headerFits for a line still arriving: true while more text
// could still make it a header.
func (r *renderer) mayBeHeader(s string) bool {
	if p := firstPipe(s); p >= 0 {
		return utf8.RuneCountInString(s[:p]) <= r.o.Width
	}
	return utf8.RuneCountInString(s) <= r.o.Width
}

func firstPipe(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '|':
			return i
		}
	}
	return -1
}

// peek writes the lines of the open paragraph that can no longer change,
// before the paragraph ends: a chat reply's long paragraph appears line by
// line as it streams. A line is final once the first word of the next line
// is settled, which needs three things of the text up to that word:
//
//   - the paragraph is longer than Width characters, so no setext underline
//     can turn it into a heading (Render applies the same limit);
//   - its source lines cannot become a table's header row: the line still
//     arriving has no "|" within its first Width characters, and a finished
//     line is followed by a line known to continue the paragraph;
//   - inline parsing leaves nothing open: no unmatched backticks, bracket
//     or emphasis opener that later text could close.
//
// Greedy wrapping then fixes every line but the last.
func (r *renderer) peek() {
	p := &r.para
	if r.leaf != leafPara || len(p.lines) == 0 {
		return
	}
	// Peeking parses the whole paragraph, so it waits for new text in
	// proportion (1/32) to what is there: a long paragraph costs a few dozen
	// parses in all, and a settled line shows within 1/32 of the paragraph.
	size := len(p.lines) - 1
	for _, l := range p.lines {
		size += len(l)
	}
	if d := size - p.peekLen; d < max(1, size/32) || r.paraRunes() <= r.o.Width {
		return
	}
	p.peekLen = size
	full := strings.Join(p.lines, "\n")
	if p.task && len(full) < 4 {
		return // the task box is not decided yet
	}
	last := p.lines[len(p.lines)-1]
	limit := len(full)
	if p.live && r.mayBeHeader(last) || !p.live && r.headerFits(len(p.lines)-1) {
		limit -= len(last)
	}
	text := r.paraText()
	limit -= len(full) - len(text)
	at := lastSpace(text, limit)
	for at > 0 {
		res := r.ip.parse(text[:at], 0)
		if res.pending < 0 {
			lines := r.wrap(res.segs, r.avail())
			for ; p.emitted < len(lines)-1; p.emitted++ {
				r.emitLine(lines[p.emitted])
			}
			return
		}
		at = lastSpace(text, res.pending)
	}
}

// lastSpace is the largest i <= limit with a space or newline at i-1, or 0.
func lastSpace(s string, limit int) int {
	for i := min(limit, len(s)); i > 0; i-- {
		if s[i-1] == ' ' || s[i-1] == '\n' {
			return i
		}
	}
	return 0
}
