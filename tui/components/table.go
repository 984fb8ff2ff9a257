package components

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
)

// Column is a table column: a fixed Width, or a Flex share of the width
// left over (at least Min cells).
type Column struct {
	Title string
	Width int
	Flex  int
	Min   int
	Right bool
}

// Row is a table row. Cells may carry styling; Key identifies the row
// across reloads, so the cursor stays on it.
type Row struct {
	Key   string
	Cells []string
	// Search is more text the filter matches but the row does not draw:
	// the words for what a cell shows as a glyph (a run's "failure").
	Search string
	text   string // lower-case plain text, for the filter
}

// Table is a list of rows with a cursor, filter-as-you-type on "/", and
// scrolling by keys and mouse wheel.
type Table struct {
	ctx    *common.Context
	cols   []Column
	rows   []Row
	shown  []int // indices of the rows the filter lets through
	cursor int   // index into shown
	offset int   // first shown row drawn
	width  int
	height int
	widths []int

	filter    *Editor
	filtering bool // typing the filter

	// Empty is drawn when there are no rows at all.
	Empty string
}

// NewTable returns an empty table.
func NewTable(ctx *common.Context, cols ...Column) *Table {
	t := &Table{ctx: ctx, cols: cols, filter: NewEditor(ctx, false)}
	t.filter.Prompt = "/"
	t.filter.Placeholder = "type to filter"
	return t
}

// SetRows replaces the rows, keeping the cursor on the row with the same
// key when there is one.
func (t *Table) SetRows(rows []Row) {
	var cur string
	if r, ok := t.Selected(); ok {
		cur = r.Key
	}
	for i := range rows {
		rows[i].text = strings.ToLower(ansi.Strip(strings.Join(rows[i].Cells, " ")) + " " + rows[i].Search)
	}
	t.rows = rows
	t.applyFilter()
	if cur != "" {
		for i, idx := range t.shown {
			if t.rows[idx].Key == cur {
				t.cursor = i
				break
			}
		}
	}
	t.clamp()
}

// Len is the number of rows, before filtering.
func (t *Table) Len() int { return len(t.rows) }

// Shown is the number of rows the filter lets through.
func (t *Table) Shown() int { return len(t.shown) }

// Selected returns the row under the cursor.
func (t *Table) Selected() (Row, bool) {
	if t.cursor < 0 || t.cursor >= len(t.shown) {
		return Row{}, false
	}
	return t.rows[t.shown[t.cursor]], true
}

// SelectedIndex is the index in the rows given to SetRows of the row under
// the cursor, or -1.
func (t *Table) SelectedIndex() int {
	if t.cursor < 0 || t.cursor >= len(t.shown) {
		return -1
	}
	return t.shown[t.cursor]
}

// Select puts the cursor on row i (an index in the rows given to
// SetRows); false when the filter hides it.
func (t *Table) Select(i int) bool {
	for c, idx := range t.shown {
		if idx == i {
			t.cursor = c
			t.clamp()
			return true
		}
	}
	return false
}

// Filter is the filter's text.
func (t *Table) Filter() string { return t.filter.Value() }

// SetFilter sets the filter's text.
func (t *Table) SetFilter(s string) {
	t.filter.SetValue(s)
	t.applyFilter()
	t.clamp()
}

// Capturing reports whether the filter is being typed.
func (t *Table) Capturing() bool { return t.filtering }

// CanGoBack reports whether esc has something to undo: a filter.
func (t *Table) CanGoBack() bool { return t.filtering || t.filter.Value() != "" }

// SetSize gives the table its cells.
func (t *Table) SetSize(width, height int) {
	t.width, t.height = width, height
	t.layout()
	t.clamp()
}

// bodyHeight is the number of rows drawn: the height less the header and,
// when a filter is shown, its line.
func (t *Table) bodyHeight() int {
	h := t.height - 1
	if t.filtering || t.filter.Value() != "" {
		h--
	}
	return max(h, 0)
}

func (t *Table) applyFilter() {
	terms := strings.Fields(strings.ToLower(t.filter.Value()))
	t.shown = t.shown[:0]
	for i, r := range t.rows {
		if matches(r.text, terms) {
			t.shown = append(t.shown, i)
		}
	}
}

func matches(text string, terms []string) bool {
	for _, term := range terms {
		if !strings.Contains(text, term) {
			return false
		}
	}
	return true
}

// layout shares the width among the columns: fixed ones first, the rest
// to the flexible ones by their shares.
func (t *Table) layout() {
	t.widths = make([]int, len(t.cols))
	avail := t.width - 2 // the cursor mark
	flex := 0
	for i, c := range t.cols {
		if i > 0 {
			avail-- // the gap before the column
		}
		if c.Flex == 0 {
			t.widths[i] = c.Width
			avail -= c.Width
		} else {
			flex += c.Flex
		}
	}
	if flex == 0 {
		return
	}
	left := max(avail, 0)
	for i, c := range t.cols {
		if c.Flex == 0 {
			continue
		}
		w := left * c.Flex / flex
		t.widths[i] = max(w, c.Min)
	}
}

func (t *Table) clamp() {
	n := len(t.shown)
	if t.cursor >= n {
		t.cursor = n - 1
	}
	if t.cursor < 0 {
		t.cursor = 0
	}
	h := t.bodyHeight()
	if t.cursor < t.offset {
		t.offset = t.cursor
	}
	if h > 0 && t.cursor >= t.offset+h {
		t.offset = t.cursor - h + 1
	}
	if t.offset > max(n-h, 0) {
		t.offset = max(n-h, 0)
	}
	if t.offset < 0 {
		t.offset = 0
	}
}

// Click puts the cursor on the row drawn at line y of the table (0 is
// the header). It reports whether y held a row, and whether the cursor
// was on it already (a second click opens it).
func (t *Table) Click(y int) (hit, again bool) {
	i := t.offset + y - 1
	if y < 1 || i >= min(t.offset+t.bodyHeight(), len(t.shown)) {
		return false, false
	}
	again = i == t.cursor
	t.cursor = i
	t.clamp()
	return true, again
}

// Move moves the cursor by n rows.
func (t *Table) Move(n int) {
	t.cursor += n
	t.clamp()
}

// Update handles movement, the filter and the mouse wheel. It reports
// whether it used the message.
func (t *Table) Update(msg tea.Msg) (bool, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if t.filtering {
			return true, t.updateFilter(msg)
		}
		return t.updateKey(msg)
	case tea.PasteMsg:
		if t.filtering {
			t.filter.Update(msg)
			t.applyFilter()
			t.clamp()
			return true, nil
		}
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			t.Move(-3)
			return true, nil
		case tea.MouseWheelDown:
			t.Move(3)
			return true, nil
		}
	}
	return false, nil
}

func (t *Table) updateKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	k := t.ctx.Keys
	page := max(t.bodyHeight()-1, 1)
	switch {
	case key.Matches(msg, k.Up):
		t.Move(-1)
	case key.Matches(msg, k.Down):
		t.Move(1)
	case key.Matches(msg, k.PageUp):
		t.Move(-page)
	case key.Matches(msg, k.PageDown):
		t.Move(page)
	case key.Matches(msg, k.Top):
		t.cursor = 0
		t.clamp()
	case key.Matches(msg, k.Bottom):
		t.cursor = len(t.shown) - 1
		t.clamp()
	case key.Matches(msg, k.Filter):
		t.filtering = true
		t.filter.Focus()
		t.clamp()
	case key.Matches(msg, k.Back) && t.filter.Value() != "":
		t.SetFilter("")
	default:
		return false, nil
	}
	return true, nil
}

// updateFilter types into the filter: every key narrows the rows at once;
// enter keeps the filter and returns to the rows, esc drops it.
func (t *Table) updateFilter(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "enter", "tab":
		t.filtering = false
		t.filter.Blur()
	case "esc":
		t.filtering = false
		t.filter.Blur()
		t.SetFilter("")
	case "up", "down", "pgup", "pgdown":
		t.filtering = false
		t.filter.Blur()
		_, cmd := t.updateKey(msg)
		return cmd
	default:
		t.filter.Update(msg)
		t.applyFilter()
		t.cursor = 0
		t.clamp()
	}
	return nil
}

// View draws the header, the visible rows and the filter line, in exactly
// the table's height.
func (t *Table) View() string {
	if t.width <= 0 || t.height <= 0 {
		return ""
	}
	st := t.ctx.Styles
	lines := make([]string, 0, t.height)
	lines = append(lines, st.Header.Render(t.line(t.headerCells(), false)))
	switch {
	case len(t.rows) == 0:
		lines = append(lines, st.Dim.Render(common.Fit("  "+t.Empty, t.width)))
	case len(t.shown) == 0:
		lines = append(lines, st.Dim.Render(common.Fit("  nothing matches the filter", t.width)))
	}
	end := min(t.offset+t.bodyHeight(), len(t.shown))
	for i := t.offset; i < end; i++ {
		r := t.rows[t.shown[i]]
		if i != t.cursor {
			lines = append(lines, t.line(r.Cells, false))
			continue
		}
		plain := make([]string, len(r.Cells))
		for j, c := range r.Cells {
			plain[j] = ansi.Strip(c)
		}
		lines = append(lines, st.Selected.Render(t.line(plain, true)))
	}
	if t.filtering || t.filter.Value() != "" {
		for len(lines) < t.height-1 {
			lines = append(lines, "")
		}
		lines = append(lines[:min(len(lines), t.height-1)], t.filterLine())
	}
	return strings.Join(lines, "\n")
}

func (t *Table) headerCells() []string {
	cells := make([]string, len(t.cols))
	for i, c := range t.cols {
		cells[i] = c.Title
	}
	return cells
}

// line lays out one row's cells in the column widths.
func (t *Table) line(cells []string, selected bool) string {
	var b strings.Builder
	if selected {
		b.WriteString("▌ ")
	} else {
		b.WriteString("  ")
	}
	for i, w := range t.widths {
		if i > 0 {
			b.WriteByte(' ')
		}
		cell := ""
		if i < len(cells) {
			cell = cells[i]
		}
		if t.cols[i].Right {
			b.WriteString(common.FitRight(cell, w))
		} else {
			b.WriteString(common.Fit(cell, w))
		}
	}
	return common.Fit(b.String(), t.width)
}

func (t *Table) filterLine() string {
	st := t.ctx.Styles
	count := st.Dim.Render(" " + text.Plural(len(t.shown), "match", "matches"))
	if !t.filtering {
		count += st.Dim.Render(" · esc clears")
	}
	t.filter.SetWidth(max(t.width-ansi.StringWidth(count), 10))
	return common.Fit(t.filter.View()+count, t.width)
}

// KeyHelp lists the table's keys.
func (t *Table) KeyHelp() []key.Binding {
	k := t.ctx.Keys
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Filter}
}
