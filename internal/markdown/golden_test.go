package markdown

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestGolden renders each sample at width 60 in plain, dark and light modes
// and compares with testdata/golden; go test -update rewrites them after a
// deliberate change (review the diff).
func TestGolden(t *testing.T) {
	t.Parallel()
	modes := []struct {
		name string
		o    Options
	}{
		{"plain", Options{Width: 60}},
		{"dark", Options{Width: 60, Color: true, Dark: true}},
		{"light", Options{Width: 60, Color: true}},
	}
	for _, name := range []string{"sample.md", "chat.md", "edge.md"} {
		src, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range modes {
			got := Render(string(src), m.o)
			file := filepath.Join("testdata", "golden", strings.TrimSuffix(name, ".md")+"."+m.name)
			if *update {
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("%s (%s) differs from %s:\n%s", name, m.name, file, diff(string(want), got))
			}
		}
	}
}
