package output

import "github.com/charmbracelet/x/ansi"

// fit truncates cells so the table fits width columns: the widest column
// gives way first, down to 8 cells; if that is not enough, the widest go on
// shrinking down to 3 cells (a cut word still tells rows apart), and only
// then may a line wrap. Each cut cell ends in an ellipsis.
func fit(headers []string, rows [][]string, width int) {
	const gap = 2
	n := len(headers)
	if n == 0 || width <= 0 {
		return
	}
	widths := make([]int, n)
	for i, h := range headers {
		widths[i] = ansi.StringWidth(h)
	}
	for _, r := range rows {
		for i := 0; i < n && i < len(r); i++ {
			widths[i] = max(widths[i], ansi.StringWidth(r[i]))
		}
	}
	total := func() int {
		s := gap * (n - 1)
		for _, w := range widths {
			s += w
		}
		return s
	}
	for _, minCol := range []int{8, 3} {
		for total() > width {
			widest := 0
			for i := range widths {
				if widths[i] > widths[widest] {
					widest = i
				}
			}
			if widths[widest] <= minCol {
				break
			}
			// One cell at a time, so the cut spreads over the widest
			// columns instead of emptying one of them.
			widths[widest]--
		}
	}
	for _, r := range append(rows, headers) {
		for i := 0; i < n && i < len(r); i++ {
			if ansi.StringWidth(r[i]) > widths[i] {
				r[i] = ansi.Truncate(r[i], widths[i], "…")
			}
		}
	}
}
