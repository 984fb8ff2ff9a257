package output

import "github.com/charmbracelet/x/ansi"

// fit truncates cells so the table fits width columns: the widest column
// gives way first, down to a minimum, with an ellipsis where it was cut.
func fit(headers []string, rows [][]string, width int) {
	const gap, minCol = 2, 8
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
		widths[widest] = max(minCol, widths[widest]-(total()-width))
	}
	for _, r := range rows {
		for i := 0; i < n && i < len(r); i++ {
			if ansi.StringWidth(r[i]) > widths[i] {
				r[i] = ansi.Truncate(r[i], widths[i], "…")
			}
		}
	}
}
