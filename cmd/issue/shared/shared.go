// Package shared holds what forge issue, pr, repo and release have in
// common: how text written by other people is shown on a terminal, and
// markdown rendering. (What list commands share is in cmd/internal/listing.)
package shared

import (
	"strings"

	"github.com/forgehq/forge/internal/iostreams"
)

// Clean makes one line of text from someone else (a title, a name) safe to
// print on a terminal: control characters, which could move the cursor or
// change the terminal's settings, are shown in caret notation (ESC as ^[),
// and line breaks become spaces.
func Clean(s string) string {
	if !strings.ContainsFunc(s, isControl) {
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
			b.WriteString("^?")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Capitalize writes a state as a label: "closed" becomes "Closed".
func Capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 }

// Markdown shows a markdown document: rendered for the terminal's width
// when stdout is a terminal (a dark background is assumed: forge never
// queries the terminal), and as written when piped, for scripts. The
// result ends in a newline unless it is empty.
func Markdown(ios *iostreams.IOStreams, src string) string {
	if !ios.IsStdoutTTY() {
		if src != "" && !strings.HasSuffix(src, "\n") {
			src += "\n"
		}
		return src
	}
	return renderMarkdown(src, ios.TerminalWidth(), ios.ColorEnabled())
}
