package shared

import (
	"strings"

	"github.com/forgehq/forge/internal/markdown"
)

// renderMarkdown renders src for a terminal of the given width, indented by
// two columns so a body stands apart from the header around it. The
// background is taken as dark: asking the terminal would mean writing a
// query and waiting for its answer on every invocation.
func renderMarkdown(src string, width int, color bool) string {
	const indent = "  "
	out := markdown.Render(src, markdown.Options{Width: max(20, width-len(indent)), Color: color, Dark: true})
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
