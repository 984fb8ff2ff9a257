package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"testing"
)

// page is a list page as an indenting service writes it.
func page(from, n int) []byte {
	items := make([]map[string]any, n)
	for i := range items {
		items[i] = map[string]any{"number": from + i, "title": fmt.Sprintf("Issue %d", from+i), "state": "open",
			"user": map[string]any{"login": "alice"}, "body": "Body of the issue"}
	}
	b, _ := json.MarshalIndent(items, "", "  ")
	return append(b, '\n')
}

func TestJoinedPagesReadAsOnePage(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	j := &joiner{w: &out}
	for _, p := range [][]byte{page(1, 2), []byte("[]"), page(3, 1), []byte(` [ {"compact":true},{"x":[1,2]} ] `)} {
		inner, ok := arrayInner(p)
		if !ok {
			t.Fatalf("not an array: %s", p)
		}
		if err := j.add(inner); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.close(); err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || len(got) != 5 {
		t.Fatalf("joined %d records, %v:\n%s", len(got), err, out.Bytes())
	}
	// Pages laid out alike join into exactly what one page would be.
	out.Reset()
	j = &joiner{w: &out}
	for _, p := range [][]byte{page(1, 2), page(3, 1)} {
		inner, _ := arrayInner(p)
		j.add(inner)
	}
	j.close()
	if want := page(1, 3); !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("joined:\n%s\nwant:\n%s", out.Bytes(), want)
	}
	out.Reset()
	(&joiner{w: &out}).close()
	if out.String() != "[]\n" {
		t.Fatalf("no pages: %q", out.String())
	}
	for _, notArray := range []string{`{"a":1}`, `[1,2`, `"x"`, ``, `[1,]`} {
		if _, ok := arrayInner([]byte(notArray)); ok {
			t.Errorf("%q taken for an array", notArray)
		}
	}
}

// BenchmarkJoinPages: joining 100 pages of 100 records, what --paginate
// does for 10,000 issues.
func BenchmarkJoinPages(b *testing.B) {
	pages := make([][]byte, 100)
	size := 0
	for i := range pages {
		pages[i] = page(i*100+1, 100)
		size += len(pages[i])
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		j := &joiner{w: io.Discard}
		for _, p := range pages {
			inner, _ := arrayInner(p)
			j.add(inner)
		}
		j.close()
	}
}
