package changes

import (
	"fmt"
	"strings"
)

// contextLines is the unchanged lines shown around a change.
const contextLines = 3

// maxCells bounds the memory of the line diff (the search keeps a
// frontier per edit): sides that differ more are shown as all of one
// replaced by all of the other.
const maxCells = 1 << 21

// kind of a line of the edit script.
const (
	same = ' '
	del  = '-'
	add  = '+'
)

type line struct {
	kind byte
	text string
}

// unified is the unified diff of old and cur with 3 lines of context, as
// diff -u and git show it ("" when they are the same).
func unified(oldName, newName, old, cur string) string {
	if old == cur {
		return ""
	}
	script := edits(split(old), split(cur))
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s\n+++ %s\n", oldName, newName)
	for i := 0; i < len(script); {
		if script[i].kind == same {
			i++
			continue
		}
		// A hunk: from context lines before the change to context lines
		// after the last change closer than 2×contextLines to the previous.
		start := max(i-contextLines, 0)
		end := i
		for j := i; j < len(script); j++ {
			if script[j].kind != same {
				end = j + 1
			} else if j-end >= 2*contextLines {
				break
			}
		}
		end = min(end+contextLines, len(script))
		writeHunk(&b, script, start, end)
		i = end
	}
	return b.String()
}

// writeHunk writes script[start:end] with its @@ head.
func writeHunk(b *strings.Builder, script []line, start, end int) {
	oldAt, newAt := 1, 1
	for _, l := range script[:start] {
		if l.kind != add {
			oldAt++
		}
		if l.kind != del {
			newAt++
		}
	}
	oldN, newN := 0, 0
	for _, l := range script[start:end] {
		if l.kind != add {
			oldN++
		}
		if l.kind != del {
			newN++
		}
	}
	fmt.Fprintf(b, "@@ -%s +%s @@\n", span(oldAt, oldN), span(newAt, newN))
	for _, l := range script[start:end] {
		b.WriteByte(l.kind)
		b.WriteString(l.text)
		b.WriteByte('\n')
	}
}

// span is a hunk's range as diff writes it: "3,4", "3" for one line,
// "2,0" for none (after line 2).
func span(at, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", at-1)
	case 1:
		return fmt.Sprint(at)
	}
	return fmt.Sprintf("%d,%d", at, n)
}

// split cuts text into lines, without their newlines.
func split(text string) []string {
	if text == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

// edits is a shortest edit script turning a into b (Myers' algorithm,
// with the common head and tail taken off first).
func edits(a, b []string) []line {
	var head, tail []line
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		head = append(head, line{same, a[0]})
		a, b = a[1:], b[1:]
	}
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		tail = append([]line{{same, a[len(a)-1]}}, tail...)
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	mid, ok := myers(a, b)
	if !ok {
		mid = mid[:0]
		for _, s := range a {
			mid = append(mid, line{del, s})
		}
		for _, s := range b {
			mid = append(mid, line{add, s})
		}
	}
	return append(append(head, mid...), tail...)
}

// myers finds the script by the greedy forward search, keeping each
// round's frontier to walk back; false when that would take more
// than maxCells.
func myers(a, b []string) ([]line, bool) {
	n, m := len(a), len(b)
	offset := n + m + 1
	v := make([]int, 2*offset+1)
	var trace [][]int
	for d := 0; d <= n+m; d++ {
		if (d+1)*len(v) > maxCells {
			return nil, false
		}
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[offset+k-1] < v[offset+k+1] {
				x = v[offset+k+1]
			} else {
				x = v[offset+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[offset+k] = x
			if x >= n && y >= m {
				return walkBack(a, b, trace, offset, d), true
			}
		}
	}
	return nil, false
}

// walkBack turns the frontiers of the search into the script.
func walkBack(a, b []string, trace [][]int, offset, d int) []line {
	var rev []line
	x, y := len(a), len(b)
	for ; d > 0; d-- {
		v := trace[d]
		k := x - y
		var prevK int
		if k == -d || k != d && v[offset+k-1] < v[offset+k+1] {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := v[offset+prevK]
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x, y = x-1, y-1
			rev = append(rev, line{same, a[x]})
		}
		if x == prevX {
			y--
			rev = append(rev, line{add, b[y]})
		} else {
			x--
			rev = append(rev, line{del, a[x]})
		}
	}
	for x > 0 && y > 0 {
		x, y = x-1, y-1
		rev = append(rev, line{same, a[x]})
	}
	out := make([]line, len(rev))
	for i, l := range rev {
		out[len(rev)-1-i] = l
	}
	return out
}
