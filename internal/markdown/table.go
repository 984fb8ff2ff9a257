package markdown

import "strings"

// table is a GFM pipe table being collected: rows[0] is the header. It is
// laid out when it ends, since column widths depend on every row.
type table struct {
	align []byte // 'l', 'c', 'r', or 0 per column
	rows  [][]string
}

// isDelimRow reports whether s is a table's delimiter row ("|---|:-:|").
// forge asks for at least one "|", so a lone "---" stays a rule or heading.
func isDelimRow(s string) bool {
	if firstPipe(s) < 0 {
		return false
	}
	for _, c := range splitRow(s) {
		c = strings.TrimPrefix(strings.TrimSuffix(c, ":"), ":")
		if c == "" || strings.Trim(c, "-") != "" {
			return false
		}
	}
	return true
}

// splitRow splits a table row into trimmed cells on unescaped pipes, and
// turns "\|" into "|" as GFM does before inline parsing.
func splitRow(s string) []string {
	s = strings.Trim(s, " ")
	s = strings.TrimPrefix(s, "|")
	if strings.HasSuffix(s, "|") && !strings.HasSuffix(s, "\\|") {
		s = s[:len(s)-1]
	}
	var cells []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '|':
			cells = append(cells, s[start:i])
			start = i + 1
		}
	}
	cells = append(cells, s[start:])
	for i, c := range cells {
		cells[i] = strings.ReplaceAll(strings.Trim(c, " "), "\\|", "|")
	}
	return cells
}

// tableStart turns the paragraph's last line into a table header; lines
// before it stay a paragraph.
func (r *renderer) tableStart(delimRow string) {
	lines := r.para.lines
	header := lines[len(lines)-1]
	if len(lines) > 1 {
		r.para.lines = lines[:len(lines)-1]
		r.paraFlush()
		r.beginBlock()
	}
	r.para = paragraph{}
	cells := splitRow(delimRow)
	t := &table{align: make([]byte, len(cells)), rows: [][]string{splitRow(header)}}
	for i, c := range cells {
		left, right := strings.HasPrefix(c, ":"), strings.HasSuffix(c, ":")
		switch {
		case left && right:
			t.align[i] = 'c'
		case right:
			t.align[i] = 'r'
		case left:
			t.align[i] = 'l'
		}
	}
	r.tbl = t
	r.leaf = leafTable
}

const colGap = 3 // " │ "

func (r *renderer) tableFlush() {
	t := r.tbl
	r.tbl = nil
	if t == nil {
		return
	}
	n := len(t.align)
	cells := make([][][]seg, len(t.rows))
	natural := make([]int, n)
	for i, row := range t.rows {
		cells[i] = make([][]seg, n)
		st := style(0)
		if i == 0 {
			st = stTableHead
		}
		for j := range n {
			if j < len(row) {
				cells[i][j] = r.ip.parse(row[j], st).segs
			}
			natural[j] = max(natural[j], segsWidth(cells[i][j]), 1)
		}
	}
	widths := fitColumns(natural, r.avail()-colGap*(n-1))
	for i, row := range cells {
		wrapped := make([][][]seg, n)
		height := 1
		for j, c := range row {
			for _, l := range r.wrap(c, widths[j]) {
				wrapped[j] = append(wrapped[j], append([]seg(nil), l...))
			}
			height = max(height, len(wrapped[j]))
		}
		for k := range height {
			var line []seg
			for j := range n {
				if j > 0 {
					line = append(line, seg{text: " │ ", st: stBorder})
				}
				var cell []seg
				if k < len(wrapped[j]) {
					cell = wrapped[j][k]
				}
				line = appendAligned(line, cell, widths[j], t.align[j])
			}
			r.emitLine(line)
		}
		if i == 0 {
			var rule strings.Builder
			for j, w := range widths {
				if j > 0 {
					rule.WriteString("─┼─")
				}
				rule.WriteString(strings.Repeat("─", w))
			}
			r.emitLine([]seg{{text: rule.String(), st: stBorder}})
		}
	}
}

func appendAligned(line, cell []seg, width int, align byte) []seg {
	pad := max(0, width-segsWidth(cell))
	left := 0
	switch align {
	case 'r':
		left = pad
	case 'c':
		left = pad / 2
	}
	if left > 0 {
		line = append(line, seg{text: strings.Repeat(" ", left)})
	}
	line = append(line, cell...)
	if pad-left > 0 {
		line = append(line, seg{text: strings.Repeat(" ", pad-left)})
	}
	return line
}

// fitColumns shrinks column widths to fit target cells: the widest columns
// give way first (all capped at one width, leftover cells going to the
// leftmost capped columns), but no column below 3 cells or its natural
// width — a table too wide even then overflows rather than become
// unreadable.
func fitColumns(natural []int, target int) []int {
	widths := append([]int(nil), natural...)
	sum := func(limit int) int {
		s := 0
		for _, w := range natural {
			s += min(w, limit)
		}
		return s
	}
	maxW := 0
	for _, w := range natural {
		maxW = max(maxW, w)
	}
	if sum(maxW) <= target {
		return widths
	}
	const minCol = 3
	lo, hi := 0, maxW // sum(lo) <= target < sum(hi)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if sum(mid) <= target {
			lo = mid
		} else {
			hi = mid
		}
	}
	if lo < minCol {
		for i, w := range natural {
			widths[i] = min(w, minCol)
		}
		return widths
	}
	extra := target - sum(lo)
	for i, w := range natural {
		widths[i] = min(w, lo)
		if w > lo && extra > 0 {
			widths[i]++
			extra--
		}
	}
	return widths
}
