package text

import (
	"strings"
	"testing"
)

func TestOneLine(t *testing.T) {
	cases := map[string]string{
		"plain title":             "plain title",
		"évasion ✓ 日本":            "évasion ✓ 日本",
		"red \x1b[31mtext\x1b[0m": "red ^[[31mtext^[[0m",
		"bell\a and\tbreak\nhere": "bell^G and break here",
		"cr\r\nlf":                "cr  lf",
		"c1 \u009b2J":             "c1 <U+009B>2J",
		"raw c1 \x9b2J":           "raw c1 <0x9B>2J",
		"del\x7f":                 "del^?",
		"nul\x00":                 "nul^@",
		"abc\u202egnp.exe":        "abc<U+202E>gnp.exe",
		"\u2066isolate\u2069":     "<U+2066>isolate<U+2069>",
		"cut \xe6\x97":            "cut <0xE6><0x97>",
	}
	for in, want := range cases {
		if got := OneLine(in); got != want {
			t.Errorf("OneLine(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSanitizeKeepsLines(t *testing.T) {
	cases := map[string]string{
		"a\n\tb\r\nc": "a\n\tb\r\nc",
		"over\rwrite": "over^Mwrite",
		"end\r":       "end^M",
		"\x1b]0;pwned\a \x1b[2J \x1b]52;c;ZXJy\a": "^[]0;pwned^G ^[[2J ^[]52;c;ZXJy^G",
	}
	for in, want := range cases {
		if got := Sanitize(in); got != want {
			t.Errorf("Sanitize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLogLine(t *testing.T) {
	cases := map[string]string{
		"plain":                 "plain",
		"\x1b[1;31mred\x1b[0m":  "\x1b[1;31mred\x1b[0m",
		"a\tb":                  "a       b",
		"50%\r100%":             "50%100%",
		"\x1b]0;title\a\x1b[2J": "^[]0;title^G^[[2J",
		"\u009b31m \u202e":      "<U+009B>31m <U+202E>",
	}
	for in, want := range cases {
		if got := LogLine(in); got != want {
			t.Errorf("LogLine(%q) = %q, want %q", in, got, want)
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

func TestFlatten(t *testing.T) {
	cases := map[string]string{
		"plain  spaces":          "plain  spaces",
		"a\tb\n\nc\r\nd":         "a b c d",
		"keeps \x1b[31m as data": "keeps \x1b[31m as data",
	}
	for in, want := range cases {
		if got := Flatten(in); got != want {
			t.Errorf("Flatten(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestShellUnquote: what ShellQuote never writes is refused.
func TestShellUnquote(t *testing.T) {
	for _, q := range []string{"", "'", "a b", "'it's'", "'abc'", "$HOME", `"x"`, "'a'b"} {
		if s, ok := ShellUnquote(q); ok {
			t.Errorf("ShellUnquote(%s) = %q, true", q, s)
		}
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/usr/local/bin/forge":         "/usr/local/bin/forge",
		"http://127.0.0.1:8080/api/v2": "http://127.0.0.1:8080/api/v2",
		"/opt/my tools/forge":          "'/opt/my tools/forge'",
		"it's":                         `'it'\''s'`,
		"":                             "''",
		"$HOME/forge":                  "'$HOME/forge'",
		"a;rm -rf ~":                   "'a;rm -rf ~'",
	} {
		if got := ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %s, want %s", in, got, want)
		}
		if back, ok := ShellUnquote(want); !ok || back != in {
			t.Errorf("ShellUnquote(%s) = %q, %v, want %q", want, back, ok, in)
		}
	}
}
