package gitstore_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/refserver/gitstore"
	"github.com/go-git/go-git/v5/plumbing"
)

var t0 = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

func sig(minutes int) gitstore.Signature {
	return gitstore.Signature{Name: "Alice", Email: "alice@example.com", When: t0.Add(time.Duration(minutes) * time.Minute)}
}

// repo is repository 1 of a store over dir ("" in memory), on main.
func repo(t *testing.T, dir string) (*gitstore.Store, *gitstore.Repo) {
	t.Helper()
	s := gitstore.New(dir)
	if err := s.Init(1, "main"); err != nil {
		t.Fatal(err)
	}
	r, err := s.Open(1)
	if err != nil {
		t.Fatal(err)
	}
	return s, r
}

func commit(t *testing.T, r *gitstore.Repo, branch string, files map[string][]byte, msg string, minutes int) string {
	t.Helper()
	sha, err := r.Commit(branch, files, msg, sig(minutes))
	if err != nil {
		t.Fatal(err)
	}
	return sha
}

// twoCommits: a root commit with a.txt and dir/b.txt; then a.txt changed,
// dir/b.txt removed and a binary c.bin added.
func twoCommits(t *testing.T, r *gitstore.Repo) (first, second string) {
	first = commit(t, r, "main", map[string][]byte{"a.txt": []byte("one\ntwo\n"), "dir/b.txt": []byte("bee\n")}, "First", 0)
	second = commit(t, r, "main", map[string][]byte{"a.txt": []byte("one\n2\nthree\n"), "dir/b.txt": nil, "c.bin": {0, 1, 2, 0}}, "Second\n\nwith a body", 1)
	return first, second
}

func TestEmpty(t *testing.T) {
	t.Parallel()
	_, r := repo(t, "")
	if !r.Empty() || r.Head("main") != "" || len(r.Branches()) != 0 {
		t.Errorf("a new repository: empty %v, head %q, branches %v", r.Empty(), r.Head("main"), r.Branches())
	}
	// HEAD ("") of an empty repository is ErrEmpty; a branch not there
	// is ErrNotFound.
	if _, _, err := r.Contents("", "", 1<<20); !errors.Is(err, gitstore.ErrEmpty) {
		t.Errorf("Contents of an empty repository: %v", err)
	}
	if _, err := r.Log("", "", 10); !errors.Is(err, gitstore.ErrEmpty) {
		t.Errorf("Log of an empty repository: %v", err)
	}
	if _, err := r.Log("main", "", 10); !errors.Is(err, gitstore.ErrNotFound) {
		t.Errorf("Log of a branch not there: %v", err)
	}
}

// TestContents reads directories and files at a branch, a hash and a
// short hash; what is not there is ErrNotFound.
func TestContents(t *testing.T) {
	t.Parallel()
	_, r := repo(t, "")
	first, second := twoCommits(t, r)
	names := func(ref, p string) string {
		entries, _, err := r.Contents(ref, p, 1<<20)
		if err != nil {
			t.Fatalf("Contents(%s, %q): %v", ref, p, err)
		}
		var l []string
		for _, e := range entries {
			l = append(l, fmt.Sprintf("%s:%s:%d", e.Path, e.Type, e.Size))
		}
		return strings.Join(l, " ")
	}
	if got, want := names("main", ""), "a.txt:file:12 c.bin:file:4"; got != want {
		t.Errorf("root at main: %q, want %q", got, want)
	}
	if got, want := names(first, "/dir/"), "dir/b.txt:file:4"; got != want {
		t.Errorf("dir at the first commit: %q, want %q", got, want)
	}
	_, f, err := r.Contents(first[:7], "a.txt", 1<<20)
	if err != nil || string(f.Content) != "one\ntwo\n" || f.Name != "a.txt" {
		t.Errorf("a.txt at %s: %+v %v", first[:7], f, err)
	}
	for _, c := range [][2]string{{"main", "dir/b.txt"}, {"main", "nope"}, {"no-branch", ""}, {second, "a.txt/x"}} {
		if _, _, err := r.Contents(c[0], c[1], 1<<20); !errors.Is(err, gitstore.ErrNotFound) {
			t.Errorf("Contents(%s, %s): %v, want ErrNotFound", c[0], c[1], err)
		}
	}
}

// TestLog: newest first; a path keeps the commits that changed it.
func TestLog(t *testing.T) {
	t.Parallel()
	_, r := repo(t, "")
	first, second := twoCommits(t, r)
	third := commit(t, r, "main", map[string][]byte{"c.bin": []byte("text now")}, "Third", 2)
	log := func(p string, limit int) string {
		l, err := r.Log("main", p, limit)
		if err != nil {
			t.Fatal(err)
		}
		var shas []string
		for _, c := range l {
			shas = append(shas, c.SHA)
		}
		return strings.Join(shas, " ")
	}
	for _, c := range []struct {
		path  string
		limit int
		want  string
	}{
		{"", 10, third + " " + second + " " + first},
		{"", 2, third + " " + second},
		{"a.txt", 10, second + " " + first},
		{"dir/b.txt", 10, second + " " + first},
		{"c.bin", 10, third + " " + second},
	} {
		if got := log(c.path, c.limit); got != c.want {
			t.Errorf("Log(%q, %d) = %s, want %s", c.path, c.limit, got, c.want)
		}
	}
	l, _ := r.Log(second, "", 1)
	if l[0].Message != "Second\n\nwith a body" || l[0].Author.Email != "alice@example.com" || len(l[0].Parents) != 1 || l[0].Parents[0] != first {
		t.Errorf("second commit %+v", l[0])
	}
	if r.Message(third) != "Third" {
		t.Errorf("Message %q", r.Message(third))
	}
}

// TestChanges: against the first parent, with line counts for text; a
// root commit adds its whole tree.
func TestChanges(t *testing.T) {
	t.Parallel()
	_, r := repo(t, "")
	first, second := twoCommits(t, r)
	describe := func(ref string) string {
		cs, cut, err := r.Changes(context.Background(), ref)
		if err != nil || cut {
			t.Fatalf("Changes(%s): cut %v, %v", ref, cut, err)
		}
		var l []string
		for _, c := range cs {
			counts := "-"
			if c.Additions != nil {
				counts = fmt.Sprintf("+%d-%d", *c.Additions, *c.Deletions)
			}
			l = append(l, c.Path+":"+c.Status+":"+counts)
		}
		return strings.Join(l, " ")
	}
	if got, want := describe(first), "a.txt:added:+2-0 dir/b.txt:added:+1-0"; got != want {
		t.Errorf("root commit: %q, want %q", got, want)
	}
	if got, want := describe(second), "a.txt:modified:+2-1 c.bin:added:- dir/b.txt:removed:+0-1"; got != want {
		t.Errorf("second commit: %q, want %q", got, want)
	}
	moved := commit(t, r, "main", map[string][]byte{"a.txt": nil, "moved.txt": []byte("one\n2\nthree\n")}, "Move", 2)
	if got, want := describe(moved), "moved.txt:renamed:+0-0"; got != want {
		t.Errorf("a rename: %q, want %q", got, want)
	}
}

// TestChangesCut: a commit of more than MaxChangedFiles files lists that
// many and says it cut the list.
func TestChangesCut(t *testing.T) {
	t.Parallel()
	_, r := repo(t, "")
	files := map[string][]byte{}
	for i := range gitstore.MaxChangedFiles + 5 {
		files[fmt.Sprintf("f%03d.txt", i)] = []byte(fmt.Sprintln(i))
	}
	sha := commit(t, r, "main", files, "Many", 0)
	cs, cut, err := r.Changes(context.Background(), sha)
	if err != nil || !cut || len(cs) != gitstore.MaxChangedFiles {
		t.Errorf("%d changes, cut %v, %v", len(cs), cut, err)
	}
}

// TestBranchesAndTags: a branch at a commit, HEAD moved to it, a tag that
// EnsureTag does not move once it exists.
func TestBranchesAndTags(t *testing.T) {
	t.Parallel()
	_, r := repo(t, "")
	first, second := twoCommits(t, r)
	if err := r.Branch("old", first); err != nil {
		t.Fatal(err)
	}
	if err := r.EnsureTag("v1", "old"); err != nil {
		t.Fatal(err)
	}
	if err := r.EnsureTag("v1", "main"); err != nil {
		t.Fatal(err)
	}
	if _, f, err := r.Contents("v1", "dir/b.txt", 1<<20); err != nil || string(f.Content) != "bee\n" {
		t.Errorf("v1 moved or is missing: %v", err)
	}
	if got := fmt.Sprint(r.Branches()); got != fmt.Sprintf("[[main %s] [old %s]]", second, first) {
		t.Errorf("branches %s", got)
	}
	on := commit(t, r, "old", map[string][]byte{"old.txt": []byte("x")}, "On old", 3)
	if r.Head("old") != on || r.Head("main") != second {
		t.Errorf("heads old %s main %s", r.Head("old"), r.Head("main"))
	}
	if err := r.SetHead("old"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.Contents("", "old.txt", 1<<20); err != nil {
		t.Errorf("HEAD after SetHead(old): %v", err)
	}
}

// TestOnDiskForGit: a repository on disk is a bare repository git itself
// reads and checks, and a new Store over the directory opens it again.
func TestOnDiskForGit(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git binary")
	}
	dir := t.TempDir()
	_, r := repo(t, dir)
	_, second := twoCommits(t, r)
	if err := r.Sync(); err != nil {
		t.Fatal(err)
	}
	gitDir := filepath.Join(dir, "1.git")
	git := func(args ...string) string {
		out, err := exec.Command("git", append([]string{"--git-dir", gitDir}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("fsck", "--strict", "--no-dangling")
	if got := git("log", "--format=%H %s %ae", "main"); got != second+" Second alice@example.com\n"+strings.Fields(git("rev-parse", "main~1"))[0]+" First alice@example.com" {
		t.Errorf("git log:\n%s", got)
	}
	if got := git("show", "main:a.txt"); got != "one\n2\nthree" {
		t.Errorf("git show main:a.txt: %q", got)
	}
	if got := git("symbolic-ref", "HEAD"); got != "refs/heads/main" {
		t.Errorf("HEAD %s", got)
	}

	again, err := gitstore.New(dir).Open(1)
	if err != nil || again.Head("main") != second {
		t.Errorf("reopened: head %q, %v", again.Head("main"), err)
	}
	s := gitstore.New(dir)
	s.Remove(1)
	if _, err := exec.Command("git", "--git-dir", gitDir, "rev-parse", "main").Output(); err == nil {
		t.Error("git still reads a removed repository")
	}
}

// TestPlanFetchDepth: `git clone --depth 2` of a linear history of five
// commits gets the two newest, the older of them as its boundary.
func TestPlanFetchDepth(t *testing.T) {
	t.Parallel()
	_, r := repo(t, "")
	var shas []plumbing.Hash
	for i := range 5 {
		shas = append(shas, plumbing.NewHash(commit(t, r, "main", map[string][]byte{"n.txt": []byte(fmt.Sprint(i))}, fmt.Sprint("Commit ", i), i)))
	}
	r.RLock()
	f, err := r.PlanFetch(context.Background(), []plumbing.Hash{shas[4]}, nil, nil, 2, false, true)
	r.RUnlock()
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Shallows) != 1 || f.Shallows[0] != shas[3] || len(f.Unshallows) != 0 {
		t.Errorf("boundary %v, unshallowed %v; want %v", f.Shallows, f.Unshallows, shas[3])
	}
	has := map[plumbing.Hash]bool{}
	for _, h := range f.Objects {
		has[h] = true
	}
	if !has[shas[4]] || !has[shas[3]] || has[shas[2]] {
		t.Errorf("the pack's commits: 4 %v, 3 %v, 2 %v (want true true false)", has[shas[4]], has[shas[3]], has[shas[2]])
	}
	// Deepened by one from that boundary: the next commit, the boundary
	// moved down.
	r.RLock()
	f, err = r.PlanFetch(context.Background(), []plumbing.Hash{shas[4]}, []plumbing.Hash{shas[4], shas[3]}, []plumbing.Hash{shas[3]}, 1, true, true)
	r.RUnlock()
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Shallows) != 1 || f.Shallows[0] != shas[2] || len(f.Unshallows) != 1 || f.Unshallows[0] != shas[3] {
		t.Errorf("deepen 1: boundary %v, unshallowed %v", f.Shallows, f.Unshallows)
	}
}

// TestOpenRemovesTemporaries: what a crash left in the middle of a write
// (a temporary pack or object) is gone when the repository is next
// opened, and the repository still reads.
func TestOpenRemovesTemporaries(t *testing.T) {
	dir := t.TempDir()
	_, r := repo(t, dir)
	commit(t, r, "main", map[string][]byte{"a.txt": []byte("a")}, "A", 0)
	left := []string{filepath.Join(dir, "1.git", "objects", "pack", "tmp_pack_123"), filepath.Join(dir, "1.git", "objects", "pack", "tmp_obj_456")}
	for _, f := range left {
		if err := os.WriteFile(f, []byte("half"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	r2, err := gitstore.New(dir).Open(1)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range left {
		if _, err := os.Stat(f); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s is still there: %v", filepath.Base(f), err)
		}
	}
	if r2.Head("main") == "" {
		t.Error("the repository lost main")
	}
}
