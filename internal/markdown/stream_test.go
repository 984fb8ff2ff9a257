package markdown

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// streamed renders src through a Stream fed in the given chunk sizes
// (cycled), and checks each Write reports the whole chunk taken.
func streamed(t testing.TB, src string, o Options, sizes ...int) string {
	t.Helper()
	var out bytes.Buffer
	s := NewStream(&out, o)
	for i, k := 0, 0; i < len(src); k++ {
		n := min(sizes[k%len(sizes)], len(src)-i)
		if got, err := s.Write([]byte(src[i : i+n])); err != nil || got != n {
			t.Fatalf("Write = %d, %v; want %d, nil", got, err, n)
		}
		i += n
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func streamSamples(t testing.TB) map[string]string {
	samples := map[string]string{}
	for _, name := range []string{"sample.md", "chat.md", "edge.md"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		samples[name] = string(b)
	}
	return samples
}

// TestStreamEverySplit feeds each sample in two writes, split at every byte
// position, and requires exactly what Render gives.
func TestStreamEverySplit(t *testing.T) {
	t.Parallel()
	for name, src := range streamSamples(t) {
		for _, o := range []Options{{Width: 80}, {Width: 33, Color: true, Dark: true}, {Width: 12}} {
			want := Render(src, o)
			for i := 0; i <= len(src); i++ {
				var out bytes.Buffer
				s := NewStream(&out, o)
				s.Write([]byte(src[:i]))
				s.Write([]byte(src[i:]))
				s.Close()
				if got := out.String(); got != want {
					t.Fatalf("%s, width %d, split at %d (%q|%q):\n%s", name, o.Width, i,
						tail(src[:i], 30), head(src[i:], 30), diff(want, got))
				}
			}
		}
	}
}

// TestStreamSmallChunks feeds byte by byte and in random small chunks, as a
// chat stream arrives.
func TestStreamSmallChunks(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for name, src := range streamSamples(t) {
		for _, width := range []int{80, 40, 20, 7} {
			o := Options{Width: width, Color: width%2 == 0}
			want := Render(src, o)
			if got := streamed(t, src, o, 1); got != want {
				t.Fatalf("%s width %d, byte by byte:\n%s", name, width, diff(want, got))
			}
			for range 20 {
				sizes := make([]int, 8)
				for i := range sizes {
					sizes[i] = 1 + rng.IntN(12)
				}
				if got := streamed(t, src, o, sizes...); got != want {
					t.Fatalf("%s width %d, chunks %v:\n%s", name, width, sizes, diff(want, got))
				}
			}
		}
	}
}

// TestStreamWritesEarly checks lines appear before the text ends: a long
// paragraph's first lines once they are settled, a heading at its newline.
func TestStreamWritesEarly(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	s := NewStream(&out, Options{Width: 20})
	write := func(text string) string {
		out.Reset()
		if _, err := s.Write([]byte(text)); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	if got := write("# Title"); got != "" {
		t.Errorf("heading written before its line ended: %q", got)
	}
	if got := write("\n"); got != "# Title\n" {
		t.Errorf("heading at newline = %q", got)
	}
	if got := write("\nThe quick brown"); got != "" {
		t.Errorf("short paragraph start written: %q", got)
	}
	// "jumps" starts the second line, so the first is final.
	if got := write(" fox jumps over"); got != "\nThe quick brown fox\n" {
		t.Errorf("after the second line began = %q", got)
	}
	if got := write(" the lazy"); got != "" {
		t.Errorf("unsettled line written: %q", got)
	}
	if got := write(" dog and keeps"); got != "jumps over the lazy\n" {
		t.Errorf("after the third line began = %q", got)
	}
	if got := write(" running"); got != "" {
		t.Errorf("unsettled line written: %q", got)
	}
	if got := write("\n\n**Note:** bold first"); got != "dog and keeps\nrunning\n" {
		t.Errorf("paragraph end wrote %q", got)
	}
	if got := write(" then more words"); got != "\nNote: bold first\n" {
		t.Errorf("a line starting in bold = %q", got)
	}
	out.Reset()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "then more words\n" {
		t.Errorf("Close wrote %q", got)
	}
}

func head(s string, n int) string { return s[:min(n, len(s))] }
func tail(s string, n int) string { return s[max(0, len(s)-n):] }

// diff shows the first differing line of two renderings.
func diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\nwant %q\ngot  %q", i+1, a, b)
		}
	}
	return "(same lines)"
}

type failWriter struct{ n int }

func (f *failWriter) Write(p []byte) (int, error) {
	f.n++
	return 0, errors.New("disk full")
}

// TestStreamErrors: the writer's error comes back from Write and Close and
// nothing more is attempted; writing after Close fails.
func TestStreamErrors(t *testing.T) {
	t.Parallel()
	fw := &failWriter{}
	s := NewStream(fw, Options{})
	if _, err := s.Write([]byte("# heading\n")); err == nil || err.Error() != "disk full" {
		t.Fatalf("Write error = %v, want disk full", err)
	}
	if _, err := s.Write([]byte("more\n\n")); err == nil {
		t.Fatal("second Write succeeded after a failed one")
	}
	if err := s.Close(); err == nil {
		t.Fatal("Close succeeded after a failed Write")
	}
	if fw.n != 1 {
		t.Errorf("writer called %d times, want 1", fw.n)
	}

	var out bytes.Buffer
	s = NewStream(&out, Options{})
	s.Write([]byte("text"))
	if err := s.Close(); err != nil || out.String() != "text\n" {
		t.Fatalf("Close = %v, wrote %q", err, out.String())
	}
	if _, err := s.Write([]byte("x")); !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("Write after Close = %v, want io.ErrClosedPipe", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}
}

// TestStreamPending: what has arrived but is not written yet is available
// as one line of plain text, and nothing is in both.
func TestStreamPending(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	s := NewStream(&out, Options{Width: 20})
	steps := []struct{ write, out, pending string }{
		{"The *quick* brown", "", "The quick brown"},
		{" fox jumps over", "The quick brown fox\n", "jumps over"},
		{" the lazy dog", "", "jumps over the lazy dog"}, // "dog" may go on
		{" ran", "jumps over the lazy\n", "dog ran"},
		{"\n\n| a | b", "dog ran\n", "| a | b"},
		{" |\n|--|--|\n| 1 | 2 |\n", "", "a │ b 1 │ 2"},
		{"\n```\ncode", "\na │ b\n──┼──\n1 │ 2\n", "code"},
		{"\n```\n\n[r]: https://x.io/p \"title\"\nsee [r]", "\n  code\n", "see r (https://x.io/p)"},
		{"\n", "", "see r (https://x.io/p)"},
		{"\n[s]: /s\n", "\nsee r\n(https://x.io/p)\n", ""},
	}
	for _, st := range steps {
		out.Reset()
		s.Write([]byte(st.write))
		if out.String() != st.out || s.Pending() != st.pending {
			t.Errorf("after %q: wrote %q, pending %q; want %q, %q", st.write, out.String(), s.Pending(), st.out, st.pending)
		}
	}
}

// TestStreamPendingMarkers: the line still arriving is previewed without
// the markers its rendering replaces — a "-" shows as the bullet it
// becomes, never as a "-" first.
func TestStreamPendingMarkers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ write, pending string }{
		{"-", ""}, // not yet known: "-x" is a paragraph, "---" a rule
		{"- ", "•"},
		{"- Your mess", "• Your mess"},
		{"* two", "• two"},
		{"3. three", "3. three"},
		{"## Head", "Head"},
		{"> quoted", "quoted"},
		{"> - both", "• both"},
		{"```go", ""},
		{"plain text", "plain text"},
	} {
		var out bytes.Buffer
		s := NewStream(&out, Options{Width: 40})
		s.Write([]byte(c.write))
		if got := s.Pending(); got != c.pending {
			t.Errorf("after %q: pending %q, want %q", c.write, got, c.pending)
		}
	}
}
