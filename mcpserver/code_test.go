package mcpserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/mcpserver/mcpservertest"
)

// TestFindCode: repo_tree lists a 600-file ref (recursive, glob, paged)
// and code_search finds where a function is defined, from a shallow clone
// kept in the cache and fetched again only when the ref moves.
func TestFindCode(t *testing.T) {
	h := mcpservertest.NewWorld(t)
	files := map[string]string{}
	for i := range 600 {
		files[fmt.Sprintf("pkg%02d/file%03d.go", i%20, i)] = fmt.Sprintf("package pkg%02d\n\nfunc F%03d() int { return %d }\n", i%20, i, i)
	}
	files["pkg07/target.go"] = "package pkg07\n\n// ParseConfig reads <config> & more.\nfunc ParseConfig(b []byte) error {\n\treturn nil\n}\n"
	files["docs/notes.md"] = "ParseConfig is documented here.\n"
	if _, err := h.Srv.CommitFiles("alice/demo", "", files, "600 files"); err != nil {
		t.Fatal(err)
	}
	s := serve(t, h)
	var all, gos, under Tree
	raw := s.Call("repo_tree", nil, &all)
	s.Call("repo_tree", map[string]any{"glob": "*.md"}, &gos)
	s.Call("repo_tree", map[string]any{"path": "pkg07", "glob": "target*"}, &under)
	if len(raw) > MaxResult || len(all.Paths) != DirPage || !strings.HasPrefix(all.Note, "truncated: results 1-500 of 603 shown") {
		t.Errorf("repo_tree: %d paths, note %q", len(all.Paths), all.Note)
	}
	if strings.Join(gos.Paths, ",") != "README.md,docs/notes.md" || strings.Join(under.Paths, ",") != "pkg07/target.go" {
		t.Errorf("repo_tree globs: %v; %v", gos.Paths, under.Paths)
	}
	var m Matches
	s.Call("code_search", map[string]any{"query": "func ParseConfig(", "glob": "*.go"}, &m)
	if len(m.Matches) != 1 || m.Matches[0].Path != "pkg07/target.go" || m.Matches[0].Line != 4 || m.Matches[0].Text != "func ParseConfig(b []byte) error {" {
		t.Errorf("code_search: %+v", m)
	}
	var re Matches
	s.Call("code_search", map[string]any{"query": `^func F0[0-9]{2}\(`, "regexp": true}, &re)
	if len(re.Matches) != MatchesPerPage || !strings.Contains(re.Note, "ask with page 2") {
		t.Errorf("code_search regexp: %d matches, %q", len(re.Matches), re.Note)
	}
	// A new commit: the next search fetches it; the cache holds one clone.
	if _, err := h.Srv.CommitFiles("alice/demo", "", map[string]string{"pkg07/more.go": "package pkg07\n\nfunc ParseConfigAgain() {}\n"}, "more"); err != nil {
		t.Fatal(err)
	}
	var again Matches
	s.Call("code_search", map[string]any{"query": "ParseConfigAgain"}, &again)
	if len(again.Matches) != 1 || again.Commit == m.Commit {
		t.Errorf("after a push: %+v", again)
	}
	clones, _ := filepath.Glob(filepath.Join(h.Env["HOME"], ".cache", "forge", "code", "*", "alice", "*.git"))
	if len(clones) != 1 {
		t.Errorf("clones in the cache: %v", clones)
	}
	if _, err := os.Stat(filepath.Join(clones[0], "shallow")); err != nil {
		t.Errorf("the clone is not shallow: %v", err)
	}
	// The token reached git in a private file removed after the fetch:
	// nothing in the clone holds it.
	token := h.Env["FORGE_TOKEN"]
	filepath.WalkDir(clones[0], func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.HasPrefix(d.Name(), "forge-auth-") {
			t.Errorf("%s is left behind", p)
		}
		if b, _ := os.ReadFile(p); token != "" && bytes.Contains(b, []byte(token)) {
			t.Errorf("%s holds the token", p)
		}
		return nil
	})
}

// TestCacheKeepsTheClonesUsedLast: past MaxClones, the clones used longest
// ago go, and the one in use stays whatever its age.
func TestCacheKeepsTheClonesUsedLast(t *testing.T) {
	cache := t.TempDir()
	start := time.Now().Add(-time.Hour)
	var dirs []string
	for i := range MaxClones + 4 {
		d := filepath.Join(cache, "host", "alice", fmt.Sprintf("r%02d.git", i))
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
		at := start.Add(time.Duration(i) * time.Minute)
		os.Chtimes(d, at, at)
		dirs = append(dirs, d)
	}
	trimCache(cache, dirs[0]) // the oldest, but in use
	for i, d := range dirs {
		_, err := os.Stat(d)
		if kept := err == nil; kept != (i == 0 || i >= 4) {
			t.Errorf("clone %d (used %d min after the first): kept %v", i, i, kept)
		}
	}
}

// TestCloneIsBounded: a repository whose files are over the clone's bound
// (a 3 MiB blob pushed with git, against a bound of 1 MiB) gives a tool
// error naming the bound, and leaves no clone behind; a repository within
// it is still searched. Before, only the fetch's 2-minute deadline
// bounded a clone.
func TestCloneIsBounded(t *testing.T) {
	defer func(n int64) { cloneLimit = n }(cloneLimit)
	cloneLimit = 1 << 20
	h := mcpservertest.NewWorld(t)
	big := make([]byte, 3<<20)
	rand.Read(big) // random: git cannot compress it below the bound
	h.Push(client.RepoName{Owner: "alice", Name: "demo"}, "main", "main",
		map[string]string{"big.bin": string(big), "small.go": "package small\n\nfunc Needle() {}\n"}, "a big blob")
	s := serve(t, h)
	msg := s.Fail("code_search", map[string]any{"query": "Needle"})
	if msg != "alice/demo at main is over 1 MiB, the most repo_tree and code_search fetch of a repository: read its files with repo_contents" {
		t.Errorf("code_search: %q", msg)
	}
	clones, _ := filepath.Glob(filepath.Join(h.Env["HOME"], ".cache", "forge", "code", "*", "alice", "*.git"))
	if len(clones) != 0 {
		t.Errorf("a clone over the bound is left in the cache: %v", clones)
	}
	// Within the bound: the blob gone, the repository is searched.
	if _, err := h.Srv.CommitFiles("alice/demo", "", map[string]string{"big.bin": "small now\n"}, "the blob made small"); err != nil {
		t.Fatal(err)
	}
	var m Matches
	s.Call("code_search", map[string]any{"query": "Needle"}, &m)
	if len(m.Matches) != 1 || m.Matches[0].Path != "small.go" {
		t.Errorf("code_search within the bound: %+v", m)
	}
}

// TestWatchStopsAGrowingFetch: the watch cancels a fetch once the clone
// has grown past the bound while the fetch runs (a file written as git's
// incoming pack is), and says so; one that stays within it is not
// stopped. (TestCloneIsBounded's fetch may end before the watch looks.)
func TestWatchStopsAGrowingFetch(t *testing.T) {
	defer func(n int64) { cloneLimit = n }(cloneLimit)
	cloneLimit = 1 << 20
	g := &gitClone{dir: t.TempDir()}
	os.WriteFile(filepath.Join(g.dir, "old.pack"), make([]byte, 2<<20), 0o600) // before: not counted
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	over := g.watch(ctx, cancel, dirSize(g.dir))
	// One byte past the bound, then wait for the watch to stop the fetch.
	os.WriteFile(filepath.Join(g.dir, "tmp_pack_1"), make([]byte, 1<<20+1), 0o600)
	<-ctx.Done()
	if !over() {
		t.Error("the watch did not say it stopped the fetch")
	}

	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	if over := g.watch(ctx2, cancel2, dirSize(g.dir)); over() || ctx2.Err() != nil {
		t.Error("a fetch within the bound was stopped")
	}
}
