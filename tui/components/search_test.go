package components

import "testing"

// TestSearchHolds: the search ignores case and a log's colours, also for
// a query that is not ASCII.
func TestSearchHolds(t *testing.T) {
	s := &Search{}
	for _, c := range []struct {
		line, query string
		want        bool
	}{
		{"##[error]Process completed", "error", true},
		{"##[ERROR]Process", "error", true},
		{"\x1b[31mFA\x1b[0mIL ok", "fail", true},
		{"Größe überschritten", "grösse", false},
		{"Größe ÜBERSCHRITTEN", "überschritten", true},
		{"short", "longer than the line", false},
		{"", "x", false},
	} {
		s.query = c.query
		if got := s.holds(c.line); got != c.want {
			t.Errorf("holds(%q, %q) = %v", c.line, c.query, got)
		}
	}
}
