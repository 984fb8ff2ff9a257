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
