package changes

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnifiedAppliesWithPatch: GNU patch turns the old side into the new
// one with the diffs forge draws, for random edits of random files.
func TestUnifiedAppliesWithPatch(t *testing.T) {
	if _, err := exec.LookPath("patch"); err != nil {
		t.Skip("patch is not installed (.ci/run installs it)")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"alpha", "beta", "gamma", "delta", "\tindented", "", "}"}
	file := func(n int) []string {
		l := make([]string, n)
		for i := range l {
			l[i] = words[rng.IntN(len(words))]
		}
		return l
	}
	dir := t.TempDir()
	for i := range 200 {
		old := file(rng.IntN(40))
		cur := append([]string(nil), old...)
		for range rng.IntN(6) + 1 {
			at := rng.IntN(len(cur) + 1)
			switch rng.IntN(3) {
			case 0:
				cur = append(cur[:at], append(file(rng.IntN(3)+1), cur[at:]...)...)
			case 1:
				if at < len(cur) {
					cur = append(cur[:at], cur[min(at+rng.IntN(3)+1, len(cur)):]...)
				}
			case 2:
				if at < len(cur) {
					cur[at] = "changed"
				}
			}
		}
		a, b := join(old), join(cur)
		u := unified("a/f", "b/f", a, b)
		if (u == "") != (a == b) {
			t.Fatalf("case %d: diff %q of %q and %q", i, u, a, b)
		}
		if u == "" {
			continue
		}
		f := filepath.Join(dir, "f")
		if err := os.WriteFile(f, []byte(a), 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("patch", "--batch", "--silent", "-p1", "--no-backup-if-mismatch")
		cmd.Dir, cmd.Stdin = dir, strings.NewReader(u)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("case %d: patch: %v: %s\n%s", i, err, out, u)
		}
		if got, _ := os.ReadFile(f); string(got) != b {
			t.Fatalf("case %d: patched %q, want %q\n%s", i, got, b, u)
		}
	}
}

func join(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

func TestUnifiedHunks(t *testing.T) {
	old := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"
	cur := "1\n2\nthree\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n"
	want := "--- a\n+++ b\n@@ -1,6 +1,6 @@\n 1\n 2\n-3\n+three\n 4\n 5\n 6\n@@ -10,3 +10,4 @@\n 10\n 11\n 12\n+13\n"
	if got := unified("a", "b", old, cur); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := unified("a", "b", "", "x\n"); got != "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n" {
		t.Errorf("a new file: %q", got)
	}
}

// A removed line reading "-- gone" (an SQL or Lua comment) is "--- gone"
// in the diff: a change, counted and drawn, not a file header.
func TestDashedLinesAreChanges(t *testing.T) {
	u := unified("a/q.sql", "b/q.sql", "select 1;\n-- gone\n", "select 1;\n++ new\n")
	if added, removed := count(u); added != 1 || removed != 1 {
		t.Errorf("counted +%d -%d in\n%s", added, removed, u)
	}
	body := strings.Join(Hunks(u), "\n")
	if !strings.Contains(body, "--- gone") || !strings.Contains(body, "+++ new") || strings.Contains(body, "q.sql") {
		t.Errorf("the hunks of\n%s\nare\n%s", u, body)
	}
}
