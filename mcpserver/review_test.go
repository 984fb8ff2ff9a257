package mcpserver

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/mcpserver/mcpservertest"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/ci"
)

// TestReviewAChange: a pull request's files, its diff (packed into
// pages, or one file's in pages), its own commits and the CI runs of its
// head; a compare of two refs.
func TestReviewAChange(t *testing.T) {
	h := mcpservertest.NewWorld(t)
	if _, err := h.Srv.CommitFiles("alice/demo", "", map[string]string{"src/a.go": "package a\n\nfunc A() int { return 1 }\n"}, "a"); err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("// a long line of a generated file, to be paged\n", 1200) // 58,800 bytes
	h.Push(mcpservertest.Demo, "main", "fix", map[string]string{"src/a.go": "package a\n\nfunc A() int { return 2 }\n"}, "fix: A returns 2")
	h.Push(mcpservertest.Demo, "fix", "fix", map[string]string{"src/b.go": "package a\n\n// <script> in a comment\nfunc B() {}\n", "gen.go": big}, "add B and gen")
	pr, err := h.Srv.CreatePull("alice/demo", refserver.PullSeed{Title: "Fix A", Author: "carol", Head: "fix", Base: "main"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Srv.CreateRun("alice/demo", refserver.RunSeed{Branch: "fix", Status: ci.Completed, Conclusion: ci.Failure, Tick: time.Hour}); err != nil {
		t.Fatal(err)
	}
	s := serve(t, h)
	n := map[string]any{"number": pr.Number}

	var files Change
	s.Call("pr_files", n, &files)
	got := map[string]ChangedFile{}
	for _, f := range files.Files {
		got[f.Path] = f
	}
	if len(files.Files) != 3 || got["src/a.go"].Status != "modified" || got["src/a.go"].Added != 1 || got["src/a.go"].Removed != 1 ||
		got["src/b.go"].Status != "added" || got["gen.go"].Added != 1200 {
		t.Errorf("pr_files: %+v", files)
	}
	var d1, d3 Change
	raw := s.Call("pr_diff", n, &d1)
	s.Call("pr_diff", map[string]any{"number": pr.Number, "page": 9}, &d3)
	all := ""
	for p := 1; p <= 3; p++ {
		var d Change
		if r := s.Call("pr_diff", map[string]any{"number": pr.Number, "page": p}, &d); len(r) > MaxResult {
			t.Errorf("pr_diff page %d: %d bytes", p, len(r))
		}
		for _, f := range d.Diffs {
			all += f.Diff + f.Note
		}
	}
	if len(raw) > MaxResult || !strings.Contains(all, "-func A() int { return 1 }\n+func A() int { return 2 }") ||
		!strings.Contains(all, "+// <script> in a comment") || !strings.Contains(all, `ask with path "gen.go"`) ||
		d1.Note != "page 1 of 3 of the diff of 3 files; ask with page 2 for more" || !strings.Contains(d3.Note, "past the end") {
		t.Errorf("pr_diff: notes %q, %q; text:\n%s", d1.Note, d3.Note, all)
	}
	var g1, g3 Change
	s.Call("pr_diff", map[string]any{"number": pr.Number, "path": "gen.go"}, &g1)
	s.Call("pr_diff", map[string]any{"number": pr.Number, "path": "gen.go", "page": 3}, &g3)
	if len(g1.Diffs) != 1 || len(g1.Diffs[0].Diff) != DiffPage || !strings.HasPrefix(g1.Note, "truncated: bytes 0-24576 of ") ||
		!strings.HasSuffix(g3.Note, ", the end") || !strings.HasSuffix(g3.Diffs[0].Diff, "to be paged\n") {
		t.Errorf("pr_diff gen.go: %q, %q", g1.Note, g3.Note)
	}
	var cs PullCommits
	s.Call("pr_commits", n, &cs)
	if len(cs.Commits) != 2 || strings.TrimSpace(cs.Commits[0].Message) != "add B and gen" || strings.TrimSpace(cs.Commits[1].Message) != "fix: A returns 2" {
		t.Errorf("pr_commits: %+v", cs)
	}
	var runs RunList
	s.Call("pr_checks", n, &runs)
	got2, err := h.REST().Pulls.Get(context.Background(), mcpservertest.Demo, pr.Number)
	if err != nil {
		t.Fatal(err)
	}
	head := got2.Head.SHA
	failed := 0
	for _, r := range runs.Runs {
		if r.Commit != head || r.Branch != "fix" {
			t.Errorf("pr_checks: a run of another commit: %+v", r)
		}
		if r.Conclusion == "failure" {
			failed++
		}
	}
	if len(runs.Runs) != 2 || failed != 1 { // the push's run and the seeded one
		t.Errorf("pr_checks: %+v", runs)
	}
	var hist CommitList
	s.Call("repo_commits", map[string]any{"ref": "fix"}, &hist)
	if len(hist.Commits) < 3 || strings.TrimSpace(hist.Commits[0].Message) != "add B and gen" {
		t.Errorf("repo_commits of fix: %+v", hist)
	}
	var cmp Change
	s.Call("repo_compare", map[string]any{"base": "main", "head": "fix"}, &cmp)
	if len(cmp.Files) != 3 {
		t.Errorf("repo_compare: %+v", cmp)
	}
	var back Change
	s.Call("repo_compare", map[string]any{"base": "fix", "head": "main"}, &back)
	if len(back.Files) != 0 || !strings.HasPrefix(back.Note, "no changes") {
		t.Errorf("repo_compare back: %+v", back)
	}
}
