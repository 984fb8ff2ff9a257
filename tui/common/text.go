package common

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// ErrorText is an error as one line for the status bar: its first line,
// with control characters made visible.
func ErrorText(err error) string {
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return OneLine(msg)
}

// OneLine makes text from the service safe to draw on one line: newlines
// and tabs become spaces and other control characters are shown in caret
// notation (^[), so a title cannot move the cursor or restyle the screen.
func OneLine(s string) string {
	if !hasControl(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f:
			b.WriteByte('^')
			b.WriteRune(r ^ 0x40)
		case r >= 0x80 && r < 0xa0:
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func hasControl(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return true
		}
	}
	return false
}

// LogLine makes a line of a CI log safe to draw: colour sequences (SGR,
// ESC [ ... m) are kept, tabs expanded, other control characters shown in
// caret notation.
func LogLine(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	col := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == 0x1b && i+1 < len(s) && s[i+1] == '[':
			j := i + 2
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';' || s[j] == ':') {
				j++
			}
			if j < len(s) && s[j] == 'm' {
				b.WriteString(s[i : j+1])
				i = j
				continue
			}
			b.WriteString("^[")
			col += 2
		case c == '\t':
			n := 8 - col%8
			b.WriteString(strings.Repeat(" ", n))
			col += n
		case c == '\r':
			// A progress line redrawn with \r: keep what follows.
		case c < 0x20 || c == 0x7f:
			b.WriteByte('^')
			b.WriteByte(c ^ 0x40)
			col += 2
		default:
			b.WriteByte(c)
			col++
		}
	}
	return b.String()
}

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

// Since says how long ago t was, in a few cells: "now", "5m ago", "3h
// ago", "12d ago", then the date.
func Since(t, now time.Time) string {
	if t.IsZero() {
		return ""
	}
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d/time.Minute))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d/time.Hour))
	case d < 60*24*time.Hour:
		return fmt.Sprintf("%dd ago", int(d/(24*time.Hour)))
	}
	return t.UTC().Format("2006-01-02")
}

// Lines splits rendered text into lines, without the empty line after a
// final newline.
func Lines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// Bytes says a size for people: 512 B, 4.0 KiB, 1.2 MiB.
func Bytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTP"[exp])
}

// Plural is "1 issue", "2 issues".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
