package shared

import "strings"

// renderMarkdown renders src for a terminal. TODO(markdown): use
// internal/markdown once it lands; until then the text is shown cleaned of
// control characters and indented.
func renderMarkdown(src string, width int, color bool) string {
	_, _ = width, color
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimRight(src, "\n"), "\n") {
		if line != "" {
			b.WriteString("  " + Clean(line))
		}
		b.WriteByte('\n')
	}
	if strings.TrimSpace(src) == "" {
		return ""
	}
	return b.String()
}
