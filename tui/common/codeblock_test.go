package common

import "testing"

func TestLastCodeBlock(t *testing.T) {
	for _, tc := range []struct {
		md, want string
		ok       bool
	}{
		{"no code here", "", false},
		{"a\n```go\nfirst\n```\nb\n~~~\n\tsecond\n  line\n~~~\nend", "\tsecond\n  line\n", true},
		{"```sh\nunclosed\n", "unclosed\n\n", true},
		{"```\n```", "\n", true},
	} {
		got, ok := LastCodeBlock(tc.md)
		if got != tc.want || ok != tc.ok {
			t.Errorf("LastCodeBlock(%q) = %q, %v; want %q, %v", tc.md, got, ok, tc.want, tc.ok)
		}
	}
}
