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
// left out.
func HelpBox(ctx *common.Context, title string, groups [][]key.Binding) string {
	st := ctx.Styles
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
	body := st.BoxTitle.Render("Keys: "+title) + st.Dim.Render(" · any key closes") +
		"\n\n" + strings.Join(rows, "\n\n")
	// The box never outgrows the terminal: it is cut, lines and rows.
	lines := strings.Split(body, "\n")
	if max(ctx.Height-2, 1) < len(lines) {
		lines = lines[:max(ctx.Height-2, 1)]
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > inner {
			lines[i] = ansi.Truncate(l, inner, "…")
		}
	}
	return st.Box.Render(strings.Join(lines, "\n"))
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
