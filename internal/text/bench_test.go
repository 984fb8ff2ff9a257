package text

import (
	"strings"
	"testing"
)

// BenchmarkSanitize: text without controls (the common case, returned as
// it is) and text full of them, 10 KB each.
func BenchmarkSanitize(b *testing.B) {
	clean := strings.Repeat("Fix the crash on start — café 日本 ✓\n", 256)[:10<<10]
	hostile := strings.Repeat("\x1b]0;pwned\a \u202eevil \x9b2J\n", 500)[:10<<10]
	for _, c := range []struct{ name, s string }{{"clean", clean}, {"hostile", hostile}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.s)))
			b.ReportAllocs()
			for b.Loop() {
				Sanitize(c.s)
			}
		})
	}
}

// BenchmarkForModel: a job log page (ordinary lines, the common case, and
// lines with escapes) through ForModel, and issue bodies through
// ProseForModel: one with hidden markup, one of paragraphs, list items
// and indented code blocks (its blocks found line by line), and one
// nested 8,000 list items deep.
func BenchmarkForModel(b *testing.B) {
	clean := strings.Repeat("2026-11-25T10:00:00Z ok  github.com/forgehq/forge/client 0.412s [no test files]\n", 200)
	colour := strings.Repeat("\x1b[32mok\x1b[0m  github.com/forgehq/forge/client\t0.412s\n", 200)
	issue := strings.Repeat("A paragraph of an issue with `code` and a <b>bold</b> word.\n", 100) + "<!-- hidden -->\n<div hidden>x</div>"
	blocks := strings.Repeat("Steps to see it, with <b>markup</b>:\n\n1.  run it\n\n        $ forge run <!-- not hidden: code -->\n\n- then\n    see\n\n\tpanic: at <main>\n\n", 40)
	// Hostile: 8,000 nested list items, then lines as wide: each line's
	// containers are matched without reading it again for each (these
	// 48 KB took 547 ms when they were; 2.4 ms since).
	deep := strings.Repeat("- ", 8000) + "x\n" + strings.Repeat(" ", 16000) + "\n" + strings.Repeat(" ", 16000) + "y <b>\n"
	for _, c := range []struct{ name, s string }{{"clean-log", clean}, {"colour-log", colour}, {"issue-markup", issue}, {"issue-code-blocks", blocks}, {"issue-deep-list", deep}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.s)))
			f := ForModel
			if strings.HasPrefix(c.name, "issue-") {
				f = ProseForModel
			}
			for b.Loop() {
				f(c.s)
			}
		})
	}
}
