package timestamp

import (
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	want := time.Date(2026, 12, 1, 8, 30, 0, 0, time.UTC)
	for _, s := range []string{
		"2026-12-01T08:30:00Z", "2026-12-01T08:30:00+00:00", "2026-12-01T09:30:00+01:00", "2026-12-01T08:30:00.000Z",
		"2026-12-01T08:30:00", "2026-12-01T08:30:00.000000", "2026-12-01 08:30:00", "2026-12-01 08:30:00Z",
		"2026-12-01 08:30:00 +0000 UTC", "2026-12-01T08:30:00+0000", " 1796113800 ", "1796113800000",
	} {
		got, ok := Parse(s)
		if !ok || !got.Equal(want) {
			t.Errorf("Parse(%q) = %v, %v; want %v", s, got, ok, want)
		}
	}
	if d, ok := Parse("2026-12-01"); !ok || !d.Equal(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("a date alone: %v %v", d, ok)
	}
	for _, s := range []string{"", "soon", "12/01/2026"} {
		if _, ok := Parse(s); ok {
			t.Errorf("Parse(%q) ok", s)
		}
	}
}
