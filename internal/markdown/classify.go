package markdown

import (
	"github.com/forgehq/forge/internal/text"
	"strconv"
	"strings"
)

// action is what a line does to the leaf blocks.
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
	actHTMLStart // the first line of an HTML block; level is its kind
	actHTMLLine  // a line inside an HTML block
)

// opening is a container a line opens: a blockquote, or a list item with
// its marker and the indentation its content needs.
type opening struct {
	kind    kind
	indent  int
	ordered bool
	ch      byte // bullet character, or the delimiter after the number
	start   int  // the item's number
	blank   bool // nothing follows the marker
}

// plan is what a line will do, decided before anything changes, so that a
// stream can classify a line still arriving and act only once its meaning
// cannot change.
type plan struct {
	matched int       // open containers (with the document) the line continues
	opens   []opening // containers it opens
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

// classify decides what line s does, following CommonMark's order: match
// the open containers, open new ones, then continue or start a leaf.
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
	if r.leaf == leafHTML && all {
		if _, p := indentOf(s, pos); r.htmlKind <= 5 || p < len(s) {
			pl.action, pl.pos = actHTMLLine, pos
			return pl
		}
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
		if text.ThematicBreak(s[p:]) {
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
			if lv := setextLevel(rest); lv > 0 && r.paraRunes() <= r.o.Width && !r.paraOnlyDefs() {
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
		html := htmlStart(rest, cont)
		switch {
		case html > 0:
			pl.action, pl.level, pl.pos = actHTMLStart, html, pos // kept with its indentation
		case fenceOpen(rest) > 0:
			pl.action = actFenceOpen
		case atxLevel(rest) > 0:
			pl.action, pl.level = actATX, atxLevel(rest)
		case text.ThematicBreak(rest):
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
	if s[0] == '>' || fenceOpen(s) > 0 || atxLevel(s) > 0 || text.ThematicBreak(s) || htmlStart(s, true) > 0 {
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
	case c == ' ', c == '<':
		return false // '<': an HTML block's start is known only with its line
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
