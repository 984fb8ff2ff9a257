package redact

import (
	"fmt"
	"testing"
)

// BenchmarkRedact500Lines: redacting a failed job's fetched tail (500
// lines, one in ten holding something to mask) before it is sent, with
// the three secrets a profile holds.
func BenchmarkRedact500Lines(b *testing.B) {
	lines := make([]string, 500)
	for i := range lines {
		lines[i] = fmt.Sprintf("2026-01-02T03:04:05.000Z ok  \texample.com/app/pkg%d\t0.012s", i)
		if i%10 == 0 {
			lines[i] = "2026-01-02T03:04:05.000Z git fetch https://ci:fgt_Q1w2E3r4T5y6U7i8O9p0@git.example.com/a/b.git"
		}
	}
	r := New("fgt_AbCdEf0123456789AbCdEf0123456789AbCdEf01", "agk_0123456789abcdef0123456789abcdef", "registry-password-1")
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range lines {
			r.Text(l)
		}
	}
}
