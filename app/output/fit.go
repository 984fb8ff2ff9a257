package output

import (
	"slices"

	"github.com/charmbracelet/x/ansi"
)

// fit truncates cells so the table fits width columns, giving way in the
// order a reader loses least:
//
//  1. a column empty in every row is dropped (its header alone would
//     take the room of a column with something in it);
//  2. the widest column that is not an identifier shrinks, one cell at a
//     time, down to 16 cells;
//  3. the columns the command named as the first to go (drop, by index,
//     in order: an event, an elapsed time) go, one at a time, before any
//     text is cut shorter — a title keeps 16 cells where a column of
//     little worth can make room;
//  4. the widest shrinks on, to 8 cells, then to 3 (a cut word still
//     tells rows apart);
//  5. an identifier (whole[i]: an ID, a fingerprint, a login) is never
//     cut: if the table still does not fit, a line wraps.
//
// Each cut cell ends in an ellipsis. It returns the columns kept, by
// index, and the headers and rows holding only those.
func fit(headers []string, rows [][]string, whole []bool, drop []int, width int) (cols []int, h []string, r [][]string) {
	const gap = 2
	n := len(headers)
	widths := make([]int, n)
	for i, hd := range headers {
		widths[i] = ansi.StringWidth(hd)
	}
	used := make([]bool, n)
	for _, row := range rows {
		for i := 0; i < n && i < len(row); i++ {
			w := ansi.StringWidth(row[i])
			widths[i] = max(widths[i], w)
			used[i] = used[i] || w > 0
		}
	}
	total := func() int {
		s := -gap
		for _, i := range cols {
			s += widths[i] + gap
		}
		return s
	}
	cols = make([]int, 0, n)
	for i := range n {
		cols = append(cols, i)
	}
	if width > 0 && total() > width {
		cols = cols[:0]
		for i := range n {
			if used[i] || headers[i] == "" {
				cols = append(cols, i)
			}
		}
	}
	for _, minCol := range []int{16, 8, 3} {
		if minCol == 8 {
			for _, d := range drop {
				if width <= 0 || total() <= width {
					break
				}
				cols = slices.DeleteFunc(cols, func(i int) bool { return i == d })
			}
		}
		for width > 0 && total() > width {
			widest := -1
			for _, i := range cols {
				if (i >= len(whole) || !whole[i]) && (widest < 0 || widths[i] > widths[widest]) {
					widest = i
				}
			}
			if widest < 0 || widths[widest] <= minCol {
				break
			}
			// One cell at a time, so the cut spreads over the widest
			// columns instead of emptying one of them.
			widths[widest]--
		}
	}
	pick := func(row []string) []string {
		out := make([]string, 0, len(cols))
		for _, i := range cols {
			c := ""
			if i < len(row) {
				c = row[i]
			}
			if ansi.StringWidth(c) > widths[i] {
				c = ansi.Truncate(c, widths[i], "…")
			}
			out = append(out, c)
		}
		return out
	}
	h = pick(headers)
	r = make([][]string, len(rows))
	for k, row := range rows {
		r[k] = pick(row)
	}
	return cols, h, r
}
