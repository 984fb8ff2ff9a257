package output

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"charm.land/lipgloss/v2/table"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/text"
)

// Color names a cell colour; it applies only when colour output is on.
type Color int

const (
	Plain Color = iota
	Bold
	Gray
	Green
	Red
	Yellow
	Cyan
	Magenta
)

var ansiColors = map[Color]string{Gray: "8", Green: "2", Red: "1", Yellow: "3", Cyan: "6", Magenta: "5"}

func (c Color) style(st lipgloss.Style) lipgloss.Style {
	if c == Bold {
		return st.Bold(true)
	}
	if code, ok := ansiColors[c]; ok {
		return st.Foreground(lipgloss.Color(code))
	}
	return st
}

// Table prints rows: on a terminal an aligned table with a header, cut to
// the terminal's width, each cell sanitized (text.OneLine); piped,
// tab-separated rows without a header or colour, the data as it came, for
// cut and awk.
type Table struct {
	ios     *iostreams.IOStreams
	headers []string
	rows    [][]string
	colors  [][]Color
	row     []string
	rowCol  []Color
	whole   []bool
	drop    []int
}

// DropFirst names the columns, by header and in order, that go first when
// a terminal is too narrow, before titles are cut shorter than 16 cells:
// those a reader misses least (an event, an elapsed time).
func (t *Table) DropFirst(headers ...string) {
	t.drop = t.drop[:0]
	for _, k := range headers {
		if i := slices.Index(t.headers, k); i >= 0 {
			t.drop = append(t.drop, i)
		}
	}
}

// KeepWhole names the columns, by header, a terminal's width never cuts:
// the identifiers a reader copies (an ID, a fingerprint, a login). Other
// columns give way first.
func (t *Table) KeepWhole(headers ...string) {
	t.whole = make([]bool, len(t.headers))
	for i, h := range t.headers {
		for _, k := range headers {
			t.whole[i] = t.whole[i] || h == k
		}
	}
}

// NewTable starts a table with the given column headers.
func NewTable(ios *iostreams.IOStreams, headers ...string) *Table {
	return &Table{ios: ios, headers: headers}
}

// Add appends a cell to the current row, in an optional colour.
func (t *Table) Add(text string, color ...Color) {
	c := Plain
	if len(color) > 0 {
		c = color[0]
	}
	t.row = append(t.row, text)
	t.rowCol = append(t.rowCol, c)
}

// AddTime appends a time cell: relative on a terminal, ISO 8601 piped.
func (t *Table) AddTime(ts time.Time) {
	t.Add(FormatTime(ts, t.ios.IsStdoutTTY()), Gray)
}

// EndRow finishes the current row.
func (t *Table) EndRow() {
	t.rows = append(t.rows, t.row)
	t.colors = append(t.colors, t.rowCol)
	t.row, t.rowCol = nil, nil
}

// Len is the number of finished rows.
func (t *Table) Len() int { return len(t.rows) }

// Render writes the table to stdout.
func (t *Table) Render() error {
	if t.row != nil {
		t.EndRow()
	}
	if !t.ios.IsStdoutTTY() {
		return t.renderTSV(t.ios.Out)
	}
	if len(t.rows) == 0 {
		return nil
	}
	_, err := fmt.Fprintln(t.ios.Out, t.renderAligned())
	return err
}

func (t *Table) renderTSV(w io.Writer) error {
	var b strings.Builder
	for _, r := range t.rows {
		for i, c := range r {
			if i > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(text.Flatten(c))
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (t *Table) renderAligned() string {
	clean := make([][]string, len(t.rows))
	for i, r := range t.rows {
		clean[i] = make([]string, len(r))
		for j, c := range r {
			clean[i][j] = text.OneLine(text.Flatten(c)) // a cell cannot reach the terminal raw
		}
	}
	cols, headers, rows := fit(t.headers, clean, t.whole, t.drop, t.ios.TerminalWidth())
	colors := make([][]Color, len(t.colors))
	for i, rc := range t.colors {
		for _, j := range cols {
			c := Plain
			if j < len(rc) {
				c = rc[j]
			}
			colors[i] = append(colors[i], c)
		}
	}
	color := t.ios.ColorEnabled()
	last := len(headers) - 1
	tbl := table.New().
		Border(lipgloss.Border{}).
		BorderTop(false).BorderBottom(false).BorderLeft(false).BorderRight(false).
		BorderHeader(false).BorderColumn(false).
		Headers(headers...).
		Rows(rows...).
		StyleFunc(func(row, col int) lipgloss.Style {
			st := lipgloss.NewStyle()
			if col < last {
				st = st.PaddingRight(2)
			}
			// An empty cell gets no colour: lipgloss would write an
			// empty pair of escape sequences for it.
			if !color || cellText(headers, rows, row, col) == "" {
				return st
			}
			if row == table.HeaderRow {
				return st.Bold(true)
			}
			if row < len(colors) && col < len(colors[row]) {
				st = colors[row][col].style(st)
			}
			return st
		})
	lines := strings.Split(tbl.Render(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// cellText is the text of a cell of the aligned table (row
// table.HeaderRow for the header).
func cellText(headers []string, rows [][]string, row, col int) string {
	if row == table.HeaderRow {
		if col < len(headers) {
			return headers[col]
		}
		return ""
	}
	if row < len(rows) && col < len(rows[row]) {
		return rows[row][col]
	}
	return ""
}
