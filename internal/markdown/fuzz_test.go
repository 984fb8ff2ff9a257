package markdown

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// FuzzRender checks, for any input: no panic; valid UTF-8 out with no
// control characters (C0, C1, bidi) but newlines and (in colour) SGR sequences; plain
// output is exactly the coloured output without its escapes; and a stream
// split at an input-chosen point and fed in small chunks gives Render's
// result.
func FuzzRender(f *testing.F) {
	// Seeds are the samples' blocks, not whole files: the fuzzer minimises
	// every input that finds new code, and a big one takes it a minute.
	for _, name := range []string{"sample.md", "chat.md", "edge.md"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		for _, block := range strings.Split(string(b), "\n\n") {
			f.Add(block, uint8(len(block)%60), uint16(len(block)/2))
		}
	}
	for _, s := range []string{"", "*", "[", "`", "- [ ] x", "a|b\n-|-", "> ```\n", "\t\t-\t*\t+", "***a**b*", "[a](<b", "&#0;", "x  \n", "1.\n\n2)", "<div>\n*a*", "[a]: /b\n[a]", "<!--\n\n-->", "a\n<pre>"} {
		f.Add(s, uint8(10), uint16(1))
	}
	f.Fuzz(func(t *testing.T, src string, width uint8, split uint16) {
		o := Options{Width: int(width % 100)}
		plain := Render(src, o)
		o.Color = true
		colour := Render(src, o)
		if got := ansi.Strip(colour); got != plain {
			t.Fatalf("plain differs from stripped colour:\n%s", diff(plain, got))
		}
		if !utf8.ValidString(plain) {
			t.Fatalf("invalid UTF-8 out: %q", plain)
		}
		for _, r := range plain {
			if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
				t.Fatalf("control character %U in output %q", r, plain)
			}
		}
		if plain != "" && !strings.HasSuffix(plain, "\n") {
			t.Fatalf("output does not end in a newline: %q", plain)
		}
		at := int(split) % (len(src) + 1)
		var out bytes.Buffer
		s := NewStream(&out, o)
		s.Write([]byte(src[:at]))
		for i := at; i < len(src); i += 3 {
			s.Write([]byte(src[i:min(i+3, len(src))]))
		}
		s.Close()
		if out.String() != colour {
			t.Fatalf("stream split at %d differs:\n%s", at, diff(colour, out.String()))
		}
	})
}
