package markdown

import (
	"strings"
	"unicode/utf8"
)

// paragraph is the open paragraph: its source lines, and how much of it
// is written already.
type paragraph struct {
	lines   []string // each source line's text, leading blanks removed
	live    bool     // the last line is still arriving (Stream only)
	emitted int      // output lines already written
	task    bool     // first block of a list item: may start with a task box
	peekLen int      // text length when last peeked
}

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
	text := strings.TrimRight(splitDefs(r.paraText(), r.define), " ")
	if text == "" {
		r.para = paragraph{}
		return // only definitions
	}
	lines := r.wrap(r.ip.parse(text, 0).segs, r.avail())
	for _, l := range lines[min(r.para.emitted, len(lines)):] {
		r.emitLine(l)
	}
	r.para = paragraph{}
}

// define records a link reference definition; the first of a label wins.
func (r *renderer) define(label, dest string) {
	if r.ip.refs == nil {
		r.ip.refs = make(map[string]string)
	}
	if l := normLabel(label); l != "" {
		if _, ok := r.ip.refs[l]; !ok {
			r.ip.refs[l] = dest
		}
	}
}

// paraOnlyDefs reports whether the open paragraph is all link reference
// definitions, which a setext underline cannot make a heading.
func (r *renderer) paraOnlyDefs() bool {
	return splitDefs(strings.Join(r.para.lines, "\n"), nil) == ""
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
	if mayBeDef(text) {
		return // definitions are never shown; the paragraph's end decides
	}
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
