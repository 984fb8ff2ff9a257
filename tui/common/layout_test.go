package common

import (
	"strings"
	"testing"
)

func TestWrap(t *testing.T) {
	for _, c := range []struct {
		in    string
		width int
		want  string
	}{
		{"it resets at 2026-12-01 00:00 UTC", 16, "it resets at|2026-12-01 00:00|UTC"},
		{"see https://forge.example.com/a-b-c now", 12, "see|https://forg|e.example.co|m/a-b-c now"},
		{"short", 10, "short"},
		{"", 10, ""},
		{"a  b", 10, "a  b"},
		{"  /help  list", 20, "  /help  list"},
		{"  indented words here", 10, "  indented|words here"},
	} {
		if got := strings.Join(Wrap(c.in, c.width), "|"); got != c.want {
			t.Errorf("Wrap(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
	}
}
