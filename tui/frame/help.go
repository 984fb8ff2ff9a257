package frame

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/forgehq/forge/tui/common"
)

// HelpBox is the help overlay: every key of the view in sight (title),
// from its key map (groups), and the keys that work everywhere. Columns
// that do not fit side by side go below one another, so no key is ever
// left out; a box taller than the terminal shows the rows from offset
// on, and scrolls (HelpScroll).
func HelpBox(ctx *common.Context, title string, groups [][]key.Binding, offset int) string {
	st := ctx.Styles
	rows := helpRows(ctx, groups)
	room := helpRoom(ctx)
	head := st.BoxTitle.Render("Keys: "+title) + st.Dim.Render(" · any key closes")
	if last := len(rows) - room; last > 0 {
		offset = min(max(offset, 0), last)
		rows = rows[offset : offset+room]
		more := "↑↓ scroll · any other key closes"
		switch {
		case offset == 0:
			more = "↓/j more · any other key closes"
		case offset == last:
			more = "↑/k back · any other key closes"
		}
		head = st.BoxTitle.Render("Keys: "+title) + st.Dim.Render(" · "+more)
	}
	inner := max(ctx.Width-4, 10)
	lines := append([]string{head, ""}, rows...)
	for i, l := range lines {
		if ansi.StringWidth(l) > inner {
			lines[i] = ansi.Truncate(l, inner, "…")
		}
	}
	return st.Box.Render(strings.Join(lines, "\n"))
}

// HelpScroll is how many lines the help box's keys may scroll: 0 when
// they fit the terminal.
func HelpScroll(ctx *common.Context, groups [][]key.Binding) int {
	return max(len(helpRows(ctx, groups))-helpRoom(ctx), 0)
}

// helpRoom is how many lines of keys the box shows: the terminal less
// the box's border and its head.
func helpRoom(ctx *common.Context) int { return max(ctx.Height-4, 1) }

// helpRows are the lines of keys of the help box: its columns side by
// side while they fit the width, blank lines between rows of them.
func helpRows(ctx *common.Context, groups [][]key.Binding) []string {
	groups = append(append([][]key.Binding{}, groups...), ctx.Keys.Global())
	var blocks []string
	seen := map[key.Help]bool{}
	for _, g := range groups {
		if b := helpColumn(ctx, unseen(g, seen)); b != "" {
			blocks = append(blocks, b)
		}
	}
	inner := max(ctx.Width-4, 10)
	var rows []string
	var row []string
	rowWidth := 0
	for _, b := range blocks {
		bw := lipgloss.Width(b)
		if len(row) > 0 && rowWidth+3+bw > inner {
			rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, row...))
			row, rowWidth = nil, 0
		}
		if len(row) > 0 {
			row = append(row, "   ")
			rowWidth += 3
		}
		row = append(row, b)
		rowWidth += bw
	}
	if len(row) > 0 {
		rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, row...))
	}
	return strings.Split(strings.Join(rows, "\n\n"), "\n")
}

// helpColumn lists a group of keys, one per line: keys, then what they do.
func helpColumn(ctx *common.Context, g []key.Binding) string {
	st := ctx.Styles
	kw := 0
	var shown []key.Binding
	for _, b := range g {
		if !b.Enabled() || b.Help().Key == "" {
			continue
		}
		shown = append(shown, b)
		kw = max(kw, ansi.StringWidth(b.Help().Key))
	}
	lines := make([]string, len(shown))
	for i, b := range shown {
		h := b.Help()
		lines[i] = st.HelpKey.Render(common.Fit(h.Key, kw)) + "  " + st.HelpDesc.Render(h.Desc)
	}
	return strings.Join(lines, "\n")
}

// unseen is g without the keys an earlier column listed (a view's own
// "esc back" and the program's), so each key is listed once.
func unseen(g []key.Binding, seen map[key.Help]bool) []key.Binding {
	var out []key.Binding
	for _, b := range g {
		if h := b.Help(); !seen[h] {
			seen[h] = true
			out = append(out, b)
		}
	}
	return out
}
