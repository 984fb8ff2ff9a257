package text

import (
	"strings"
	"testing"
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

func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0 layers", 1: "1 layer", 3: "3 layers"} {
		if got := Count(n, "layer"); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 64 << 20: "64.0 MiB", 3 << 30: "3.0 GiB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestShortDigest(t *testing.T) {
	long := "sha256:" + strings.Repeat("ab", 32)
	for in, want := range map[string]string{long: "sha256:abababababab", "sha256:abc": "sha256:abc", "latest": "latest"} {
		if got := ShortDigest(in); got != want {
			t.Errorf("ShortDigest(%q) = %q, want %q", in, got, want)
		}
	}
}
