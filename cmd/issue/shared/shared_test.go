package shared

import (
	"testing"

	"github.com/forgehq/forge/internal/iostreams"
)

func TestClean(t *testing.T) {
	cases := map[string]string{
		"plain title":             "plain title",
		"évasion ✓ 日本":            "évasion ✓ 日本",
		"red \x1b[31mtext\x1b[0m": "red ^[[31mtext^[[0m",
		"bell\a and\tbreak\nhere": "bell^G and break here",
		"c1 \u009b2J":             "c1 ^?2J",
		"del\x7f":                 "del^?",
	}
	for in, want := range cases {
		if got := Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMarkdownPipedIsVerbatim(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	src := "# Title\n\n**bold** \x1b[31m\n"
	if got := Markdown(ios, src); got != src {
		t.Errorf("piped = %q, want the source", got)
	}
	if got := Markdown(ios, "no newline"); got != "no newline\n" {
		t.Errorf("piped = %q, want a final newline added", got)
	}
	if got := Markdown(ios, ""); got != "" {
		t.Errorf("empty = %q", got)
	}
}
