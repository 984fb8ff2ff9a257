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
