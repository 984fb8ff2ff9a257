package markdown

import (
	"io"
	"os"
	"strings"
	"testing"
)

// benchDoc is about 100 KB of issue- and chat-like markdown: the samples
// repeated.
func benchDoc(b *testing.B) string {
	var parts []string
	for _, name := range []string{"chat.md", "sample.md"} {
		src, err := os.ReadFile("testdata/" + name)
		if err != nil {
			b.Fatal(err)
		}
		parts = append(parts, string(src))
	}
	unit := strings.Join(parts, "\n")
	return strings.Repeat(unit+"\n", 100<<10/len(unit)+1)
}

func BenchmarkRender100KB(b *testing.B) {
	doc := benchDoc(b)
	for _, mode := range []struct {
		name string
		o    Options
	}{{"plain", Options{Width: 80}}, {"color", Options{Width: 80, Color: true, Dark: true}}} {
		b.Run(mode.name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				Render(doc, mode.o)
			}
		})
	}
}

// BenchmarkStream100KB feeds the document in 16-byte writes, the size of a
// few tokens of a streamed chat reply.
func BenchmarkStream100KB(b *testing.B) {
	doc := []byte(benchDoc(b))
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		s := NewStream(io.Discard, Options{Width: 80, Color: true, Dark: true})
		for i := 0; i < len(doc); i += 16 {
			s.Write(doc[i:min(i+16, len(doc))])
		}
		s.Close()
	}
}
