package components

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/extedit"
)

// Editor is a line of text (a filter, a path, a code) or, when multiline,
// a block of text (a comment, a chat message), soft-wrapped to its width.
// It is forge's own rather than bubbles' textinput and textarea: those
// link a clipboard package whose init() searches $PATH for xclip and xsel
// on every forge invocation, even `forge --version`.
//
// Keys: arrows, home/end and ctrl+a/ctrl+e move; ctrl+left/right and
// alt+left/right move by word; backspace, delete, ctrl+w (word), ctrl+u (to
// the start) and ctrl+k (to the end) delete; a bracketed paste is inserted
// whole. Enter inserts a newline in a multiline editor; the owner decides
// which key sends.
//
// The text is kept as grapheme clusters (what a reader sees as one
// character: "é" written as e and a combining accent, a family emoji of
// seven code points): the cursor moves over them, backspace deletes them
// and wrapping keeps them whole.
type Editor struct {
	ctx       *common.Context
	id        int
	multiline bool
	lines     [][]string // each line's grapheme clusters
	row, col  int
	focused   bool
	width     int
	height    int // rows shown when multiline
	top       int // first visual row shown

	Prompt      string
	Placeholder string
	// Limit caps the length in runes (0: none).
	Limit int
	// Mask, when set, is drawn for every character (a password).
	Mask string
}

// NewEditor returns an empty editor.
func NewEditor(ctx *common.Context, multiline bool) *Editor {
	return &Editor{ctx: ctx, id: ctx.NewID(), multiline: multiline, lines: [][]string{nil}, width: 40, height: 3}
}

// External opens the text in the user's own editor ($VISUAL, $EDITOR),
// the program suspended until it exits; Take brings the result back.
func (e *Editor) External() tea.Cmd {
	return extedit.Open(e.ctx.Factory.Getenv, e.id, e.Value())
}

// Take puts the text the user's editor left in place, when msg answers
// this editor's External. It reports whether the text changed; an
// editor that failed leaves it as it was and says why.
func (e *Editor) Take(msg extedit.DoneMsg) (bool, tea.Cmd) {
	if msg.Owner != e.id {
		return false, nil
	}
	if msg.Err != nil {
		return false, common.Error(msg.Err)
	}
	if msg.Text == e.Value() {
		return false, nil
	}
	e.SetValue(msg.Text)
	return true, nil
}

// Value is the text.
func (e *Editor) Value() string {
	parts := make([]string, len(e.lines))
	for i, l := range e.lines {
		parts[i] = strings.Join(l, "")
	}
	return strings.Join(parts, "\n")
}

// SetValue replaces the text and puts the cursor at its end.
func (e *Editor) SetValue(s string) {
	e.lines = [][]string{nil}
	e.row, e.col, e.top = 0, 0, 0
	e.insert(s)
}

// Reset empties the editor.
func (e *Editor) Reset() { e.SetValue("") }

// Focus shows the cursor and accepts keys; Blur stops.
func (e *Editor) Focus()        { e.focused = true }
func (e *Editor) Blur()         { e.focused = false }
func (e *Editor) Focused() bool { return e.focused }

// SetWidth sets the width in cells, prompt included.
func (e *Editor) SetWidth(w int) { e.width = max(w, 1) }

// SetHeight sets the rows a multiline editor shows.
func (e *Editor) SetHeight(h int) { e.height = max(h, 1) }

// Update edits the text.
func (e *Editor) Update(msg tea.Msg) {
	if !e.focused {
		return
	}
	switch msg := msg.(type) {
	case tea.PasteMsg:
		e.insert(msg.Content)
	case tea.KeyPressMsg:
		e.key(msg)
	}
}

func (e *Editor) key(msg tea.KeyPressMsg) {
	line := e.lines[e.row]
	switch msg.String() {
	case "left", "ctrl+b":
		e.left()
	case "right", "ctrl+f":
		e.right()
	case "home", "ctrl+a":
		e.col = 0
	case "end", "ctrl+e":
		e.col = len(line)
	case "ctrl+left", "alt+left", "alt+b":
		e.wordLeft()
	case "ctrl+right", "alt+right", "alt+f":
		e.wordRight()
	case "up":
		e.vertical(-1)
	case "down":
		e.vertical(1)
	case "backspace", "ctrl+h":
		e.backspace()
	case "delete", "ctrl+d":
		e.delete()
	case "ctrl+w", "alt+backspace":
		// wordLeft stays on the row.
		start := e.col
		e.wordLeft()
		e.replace(e.col, start, "")
	case "ctrl+u":
		e.lines[e.row] = append([]string(nil), line[e.col:]...)
		e.col = 0
	case "ctrl+k":
		e.lines[e.row] = line[:e.col]
	case "enter":
		if e.multiline {
			e.insert("\n")
		}
	case "tab":
		// Indentation (Go, Makefiles) is typed as it is pasted.
		if e.multiline {
			e.insert("\t")
		}
	default:
		if msg.Text != "" && msg.Mod&^(tea.ModShift|tea.ModCapsLock) == 0 {
			e.insert(msg.Text)
		}
	}
}

func (e *Editor) left() {
	switch {
	case e.col > 0:
		e.col--
	case e.row > 0:
		e.row--
		e.col = len(e.lines[e.row])
	}
}

func (e *Editor) right() {
	switch {
	case e.col < len(e.lines[e.row]):
		e.col++
	case e.row < len(e.lines)-1:
		e.row++
		e.col = 0
	}
}

func (e *Editor) wordLeft() {
	line := e.lines[e.row]
	for e.col > 0 && isSpace(line[e.col-1]) {
		e.col--
	}
	for e.col > 0 && !isSpace(line[e.col-1]) {
		e.col--
	}
}

func (e *Editor) wordRight() {
	line := e.lines[e.row]
	for e.col < len(line) && isSpace(line[e.col]) {
		e.col++
	}
	for e.col < len(line) && !isSpace(line[e.col]) {
		e.col++
	}
}

func isSpace(g string) bool {
	r, _ := utf8.DecodeRuneInString(g)
	return unicode.IsSpace(r)
}

// vertical moves the cursor up or down a visual row.
func (e *Editor) vertical(d int) {
	if !e.multiline {
		return
	}
	rows, cur := e.visual()
	target := cur.row + d
	if target < 0 || target >= len(rows) {
		return
	}
	r := rows[target]
	e.row = r.line
	e.col = min(r.start+cur.col, r.end)
	if r.end < len(e.lines[r.line]) && e.col == r.end && r.end > r.start {
		e.col = r.end - 1
	}
}

func (e *Editor) backspace() {
	switch {
	case e.col > 0:
		e.replace(e.col-1, e.col, "")
	case e.row > 0:
		e.row--
		e.join()
	}
}

func (e *Editor) delete() {
	line := e.lines[e.row]
	switch {
	case e.col < len(line):
		e.replace(e.col, e.col+1, "")
	case e.row < len(e.lines)-1:
		e.join()
	}
}

// join appends the next line to the cursor's, the cursor where they meet.
func (e *Editor) join() {
	line := e.lines[e.row]
	at := len(line)
	e.lines[e.row] = append(line[:at:at], e.lines[e.row+1]...)
	e.lines = append(e.lines[:e.row+1], e.lines[e.row+2:]...)
	e.replace(at, at, "")
}

// replace puts text in place of clusters [from, to) of the cursor's line,
// the cursor after it. What is typed or deleted can join its neighbours
// into one cluster (an accent typed after its letter) or part them, so
// the clusters next to the edit are cut again; the rest of the line keeps
// its cuts, and a key costs the same on a long line. (Only a lone
// regional indicator typed into a run of flags could pair differently
// than a new cut of the whole line would.)
func (e *Editor) replace(from, to int, text string) {
	line := e.lines[e.row]
	i, j := max(from-1, 0), min(to+1, len(line))
	head := strings.Join(line[i:from], "") + text
	cut := clusters(head+strings.Join(line[to:j], ""), from-i+len(text)+j-to)
	// The cursor goes after the cluster holding head's last byte.
	col, off := 0, 0
	for col < len(cut) && off < len(head) {
		off += len(cut[col])
		col++
	}
	e.lines[e.row], e.col = slices.Replace(line, i, j, cut...), i+col
}

// clusters cuts s into grapheme clusters; there are at most n.
func clusters(s string, n int) []string {
	out := make([]string, 0, n)
	for s != "" {
		g, _ := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
		if g == "" {
			g = s[:1]
		}
		out = append(out, g)
		s = s[len(g):]
	}
	return out
}

// insert types s at the cursor. A single-line editor turns newlines into
// spaces; control characters are dropped.
func (e *Editor) insert(s string) {
	s = e.fit(clean(s, e.multiline))
	for i, part := range strings.Split(s, "\n") {
		if i > 0 {
			line := e.lines[e.row]
			rest := append([]string(nil), line[e.col:]...)
			e.lines[e.row] = line[:e.col]
			e.lines = append(e.lines[:e.row+1], append([][]string{rest}, e.lines[e.row+1:]...)...)
			e.row++
			e.col = 0
		}
		if part != "" {
			e.replace(e.col, e.col, part)
		}
	}
}

// clean makes s fit for the editor: line breaks are \n (a space in one
// line), a tab stays in a multiline editor (a space in one line), and other
// control characters are dropped, bidi controls too (text from the
// service — a profile's name — must not turn the line around).
func clean(s string, multiline bool) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r':
			if multiline {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
		case r == '\t' && multiline:
			b.WriteByte('\t')
		case r == '\t':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0),
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// fit cuts s to what Limit leaves room for, between grapheme clusters.
func (e *Editor) fit(s string) string {
	if e.Limit <= 0 {
		return s
	}
	room := e.Limit - e.length()
	n := 0
	for _, g := range clusters(s, len(s)) {
		k := utf8.RuneCountInString(g)
		if k > room {
			break
		}
		room -= k
		n += len(g)
	}
	return s[:n]
}

// length is the text's length in runes, a newline counting one.
func (e *Editor) length() int {
	n := len(e.lines) - 1
	for _, l := range e.lines {
		for _, g := range l {
			n += utf8.RuneCountInString(g)
		}
	}
	return n
}

// vrow is one visual row: clusters [start, end) of a line.
type vrow struct{ line, start, end int }

type vpos struct{ row, col int }

// visual wraps the lines to the text width and finds the cursor's row and
// column among the visual rows.
func (e *Editor) visual() ([]vrow, vpos) {
	w := max(e.width-ansi.StringWidth(e.Prompt), 1)
	var rows []vrow
	var cur vpos
	for i, l := range e.lines {
		start, cells := 0, 0
		for j, g := range l {
			rw := cellWidth(g)
			if cells+rw > w-1 && j > start {
				rows = append(rows, vrow{i, start, j})
				start, cells = j, 0
			}
			cells += rw
		}
		rows = append(rows, vrow{i, start, len(l)})
	}
	for k, r := range rows {
		if r.line == e.row && e.col >= r.start && (e.col < r.end || e.col == r.end && (k+1 == len(rows) || rows[k+1].line != r.line)) {
			cur = vpos{k, e.col - r.start}
			break
		}
	}
	return rows, cur
}

// tabSpaces is how a tab is drawn (as spaces: a tab written to the
// terminal would jump to its own tab stops); tabWidth the cells it takes.
const (
	tabSpaces = "    "
	tabWidth  = len(tabSpaces)
)

// cellWidth is the cells a grapheme cluster takes (a lone combining mark
// one, so that the cursor can sit on it).
func cellWidth(g string) int {
	if g == "\t" {
		return tabWidth
	}
	if len(g) == 1 {
		return 1
	}
	return max(ansi.StringWidth(g), 1)
}

// View draws the editor: one line, or its height of soft-wrapped rows
// scrolled to the cursor.
//
// Focus shows: the focused editor has the cursor and its prompt in colour,
// another is drawn dim.
func (e *Editor) View() string {
	st := e.ctx.Styles
	prompt := st.Prompt.Render(e.Prompt)
	if !e.focused {
		prompt = st.Dim.Render(e.Prompt)
	}
	pad := strings.Repeat(" ", ansi.StringWidth(e.Prompt))
	if len(e.lines) == 1 && len(e.lines[0]) == 0 && e.Placeholder != "" {
		ph := st.Placeholder.Render(e.Placeholder)
		if e.focused {
			ph = st.Cursor.Render(" ") + ph
		}
		first := common.Fit(prompt+ph, e.width)
		if !e.multiline {
			return first
		}
		return first + strings.Repeat("\n", e.height-1)
	}
	if !e.multiline {
		return e.singleView(prompt)
	}
	rows, cur := e.visual()
	if cur.row < e.top {
		e.top = cur.row
	}
	if cur.row >= e.top+e.height {
		e.top = cur.row - e.height + 1
	}
	e.top = max(min(e.top, len(rows)-e.height), 0)
	out := make([]string, 0, e.height)
	for k := e.top; k < e.top+e.height; k++ {
		lead := pad
		if k == 0 {
			lead = prompt
		}
		if k >= len(rows) {
			out = append(out, "")
			continue
		}
		r := rows[k]
		seg := e.lines[r.line][r.start:r.end]
		c := -1
		if e.focused && k == cur.row {
			c = cur.col
		}
		out = append(out, lead+e.draw(seg, c))
	}
	return strings.Join(out, "\n")
}

// singleView scrolls a line sideways so the cursor stays in view.
func (e *Editor) singleView(prompt string) string {
	line := e.lines[0]
	w := max(e.width-ansi.StringWidth(e.Prompt)-1, 1)
	start := 0
	cells := 0
	for i := e.col - 1; i >= 0; i-- {
		cells += cellWidth(line[i])
		if cells > w-1 {
			start = i + 1
			break
		}
	}
	end, cells := start, 0
	for end < len(line) && cells+cellWidth(line[end]) <= w {
		cells += cellWidth(line[end])
		end++
	}
	c := -1
	if e.focused {
		c = e.col - start
	}
	return common.Fit(prompt+e.draw(line[start:end], c), e.width)
}

// draw draws clusters with the cursor on cluster c (-1: no cursor).
func (e *Editor) draw(seg []string, c int) string {
	if e.Mask != "" {
		masked := make([]string, len(seg))
		for i := range masked {
			masked[i] = e.Mask
		}
		seg = masked
	}
	if c < 0 && !e.focused {
		return e.ctx.Styles.Dim.Render(untab(strings.Join(seg, "")))
	}
	if c < 0 {
		return untab(strings.Join(seg, ""))
	}
	cur := " "
	after := ""
	if c < len(seg) {
		cur = seg[c]
		after = strings.Join(seg[c+1:], "")
	}
	if cur == "\t" {
		cur, after = " ", strings.Repeat(" ", tabWidth-1)+after
	}
	return untab(strings.Join(seg[:c], "")) + e.ctx.Styles.Cursor.Render(cur) + untab(after)
}

// untab draws s's tabs as tabWidth spaces.
func untab(s string) string { return strings.ReplaceAll(s, "\t", tabSpaces) }
