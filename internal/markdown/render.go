package markdown

import (
	"strings"

	"github.com/forgehq/forge/internal/iostreams"
)

// ForStdout is a markdown document as a command prints it on stdout:
// rendered for the terminal's width when stdout is a terminal (a dark
// background is assumed: forge never queries the terminal), and as written
// when piped, for scripts. The result ends in a newline unless it is empty.
func ForStdout(ios *iostreams.IOStreams, src string) iostreams.Styled {
	if !ios.IsStdoutTTY() {
		if src != "" && !strings.HasSuffix(src, "\n") {
			src += "\n"
		}
		return iostreams.Styled(src)
	}
	return iostreams.Styled(renderIndented(src, ios.TerminalWidth(), ios.ColorEnabled()))
}

// renderIndented renders src for a terminal of the given width, indented
// by two columns so a body stands apart from the header around it.
func renderIndented(src string, width int, color bool) string {
	const indent = "  "
	out := Render(src, Options{Width: max(20, width-len(indent)), Color: color, Dark: true})
	lines := strings.SplitAfter(out, "\n")
	var b strings.Builder
	b.Grow(len(out) + len(lines)*len(indent))
	for _, l := range lines {
		if l != "\n" && l != "" {
			b.WriteString(indent)
		}
		b.WriteString(l)
	}
	return b.String()
}
