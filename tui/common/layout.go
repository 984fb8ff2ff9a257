package common

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Fit cuts s (which may hold SGR styling) to width cells, ending in "…"
// when cut, and pads it with spaces to exactly width.
func Fit(s string, width int) string {
	if width <= 0 {
		return ""
	}
	w := ansi.StringWidth(s)
	if w > width {
		s = ansi.Truncate(s, width, "…")
		w = ansi.StringWidth(s)
	}
	if w < width {
		s += strings.Repeat(" ", width-w)
	}
	return s
}

// Rule is head followed by a line of "─" to width cells.
func Rule(head string, width int) string {
	w := ansi.StringWidth(head)
	if w >= width {
		return ansi.Truncate(head, width, "")
	}
	return head + strings.Repeat("─", width-w)
}

// FitRight is Fit aligned right.
func FitRight(s string, width int) string {
	if width <= 0 {
		return ""
	}
	w := ansi.StringWidth(s)
	if w > width {
		return ansi.Truncate(s, width, "…")
	}
	return strings.Repeat(" ", width-w) + s
}

// Wrap breaks a line of plain text into lines of at most width cells, at
// spaces only — a date, a URL or a hyphenated name stays whole unless it
// alone is wider than width, when it is cut where the width ends.
// Spaces inside a line (an indentation) are kept.
func Wrap(s string, width int) []string {
	width = max(width, 1)
	var lines []string
	line, w, started := "", 0, false
	for _, word := range strings.Split(s, " ") {
		ww := ansi.StringWidth(word)
		if started && w+1+ww <= width {
			line, w = line+" "+word, w+1+ww
			continue
		}
		if started {
			lines = append(lines, line)
		}
		for ww > width {
			lines = append(lines, ansi.Truncate(word, width, ""))
			word = ansi.TruncateLeft(word, width, "")
			ww = ansi.StringWidth(word)
		}
		line, w, started = word, ww, true
	}
	return append(lines, line)
}
