package refserver_test

import (
	"crypto/sha1"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
)

// TestGitPushManyEditsAcrossRestart: the real git pushes small edits one
// after the other (thin packs whose deltas name objects of earlier
// pushes) to a seeded repository and a pushed one, in memory and in a
// data directory, across a restart; then a clone and both repositories
// pass git fsck and nothing is left behind in the data directory.
func TestGitPushManyEditsAcrossRestart(t *testing.T) {
	needGit(t)
	t.Parallel()
	t.Run("memory", func(t *testing.T) { t.Parallel(); testManyPushes(t, "") })
	t.Run("disk", func(t *testing.T) { t.Parallel(); testManyPushes(t, t.TempDir()) })
}

func testManyPushes(t *testing.T, dataDir string) {
	s := refservertest.Start(t, refservertest.DataDir(dataDir))
	alice := mustUser(t, s, "alice", "alice-password-123", "")
	// A seeded repository (made by the server's own commits) with a file
	// large enough that git sends an edit of it as a delta.
	want(t, call(t, s, "POST", "/repos", alice, map[string]any{"name": "seeded", "auto_init": true}), 201)
	if _, err := s.CommitFiles("alice/seeded", "", map[string]string{"notes.txt": manyLines(0)}, "Add notes"); err != nil {
		t.Fatal(err)
	}
	want(t, call(t, s, "POST", "/repos", alice, map[string]any{"name": "pushed"}), 201)
	remote := func(name string) string {
		u, _ := url.Parse(s.URL() + "/alice/" + name + ".git")
		u.User = url.UserPassword("x", alice)
		return u.String()
	}
	work := t.TempDir()
	mustGit(t, work, "clone", "-q", remote("seeded"), "seeded")
	pushed := filepath.Join(work, "pushed")
	mustGit(t, work, "init", "-q", "-b", "main", "pushed")
	mustGit(t, pushed, "remote", "add", "origin", remote("pushed"))
	edit := func(dir string, i int) {
		t.Helper()
		os.WriteFile(filepath.Join(dir, "notes.txt"), []byte(manyLines(i)), 0o644)
		mustGit(t, dir, "commit", "-q", "-a", "--allow-empty", "-m", fmt.Sprintf("Edit %d [skip ci]", i))
		if out, err := gitCmd(t, dir, "push", "-q", "origin", "main"); err != nil {
			t.Fatalf("push %d of %s: %v\n%s", i, filepath.Base(dir), err, out)
		}
	}
	os.WriteFile(filepath.Join(pushed, "notes.txt"), []byte(manyLines(0)), 0o644)
	mustGit(t, pushed, "add", ".")
	for i := 1; i <= 12; i++ {
		if i == 7 && dataDir != "" {
			s.Close()
			s = refservertest.Start(t, refservertest.DataDir(dataDir))
			// The clones' remote URLs name the old port.
			mustGit(t, filepath.Join(work, "seeded"), "remote", "set-url", "origin", remote("seeded"))
			mustGit(t, pushed, "remote", "set-url", "origin", remote("pushed"))
		}
		edit(filepath.Join(work, "seeded"), i)
		edit(pushed, i)
	}
	for _, name := range []string{"seeded", "pushed"} {
		c := want(t, call(t, s, "GET", "/repos/alice/"+name+"/commits?per_page=100", alice, nil), 200)
		wantCommits := 12
		if name == "seeded" {
			wantCommits = 14
		}
		if len(c.arr) != wantCommits {
			t.Errorf("%s has %d commits, want %d", name, len(c.arr), wantCommits)
		}
		clone := filepath.Join(t.TempDir(), name)
		mustGit(t, filepath.Dir(clone), "clone", "-q", remote(name), name)
		if b, _ := os.ReadFile(filepath.Join(clone, "notes.txt")); string(b) != manyLines(12) {
			t.Errorf("%s's clone holds notes.txt of %d bytes, want the last edit", name, len(b))
		}
		mustGit(t, clone, "fsck", "--strict")
	}
	if dataDir == "" {
		return
	}
	s.Close()
	bare, _ := filepath.Glob(filepath.Join(dataDir, "git", "*.git"))
	for _, m := range bare {
		mustGit(t, m, "fsck", "--strict")
		left, _ := filepath.Glob(filepath.Join(m, "objects", "pack", "tmp_*"))
		if len(left) > 0 {
			t.Errorf("left behind: %v", left)
		}
	}
}

// manyLines is a file of 200 lines of which line i differs per edit.
func manyLines(i int) string {
	var b strings.Builder
	for n := 0; n < 200; n++ {
		if n == i {
			fmt.Fprintf(&b, "line %d edited in edit %d\n", n, i)
			continue
		}
		fmt.Fprintf(&b, "line %d of the notes, long enough to be worth a delta\n", n)
	}
	return b.String()
}

// TestGitRefRules: a push that only deletes a branch works (git sends no
// pack); the default branch is not deleted; names git's check-ref-format
// refuses, and names holding invisible characters, are refused by push
// and by the REST API, in memory and on disk.
func TestGitRefRules(t *testing.T) {
	needGit(t)
	t.Parallel()
	t.Run("memory", func(t *testing.T) { t.Parallel(); testRefRules(t, "") })
	t.Run("disk", func(t *testing.T) { t.Parallel(); testRefRules(t, t.TempDir()) })
}

// clonedApp is a server (on dataDir, or in memory) where alice has the
// repository app, with its first commit, and her clone of it.
func clonedApp(t *testing.T, dataDir string) (s *refserver.Server, alice, dir string) {
	t.Helper()
	s = refservertest.Start(t, refservertest.DataDir(dataDir))
	alice = mustUser(t, s, "alice", "alice-password-123", "")
	want(t, call(t, s, "POST", "/repos", alice, map[string]any{"name": "app", "auto_init": true}), 201)
	u, _ := url.Parse(s.URL() + "/alice/app.git")
	u.User = url.UserPassword("x", alice)
	work := t.TempDir()
	mustGit(t, work, "clone", "-q", u.String(), "app")
	dir = filepath.Join(work, "app")
	return s, alice, dir
}

func testRefRules(t *testing.T, dataDir string) {
	s, alice, dir := clonedApp(t, dataDir)
	branches := func() string {
		var names []string
		for _, b := range want(t, call(t, s, "GET", "/repos/alice/app/branches", alice, nil), 200).arr {
			names = append(names, b.(map[string]any)["name"].(string))
		}
		return strings.Join(names, " ")
	}

	mustGit(t, dir, "push", "-q", "origin", "HEAD:refs/heads/topic")
	if got := branches(); got != "main topic" {
		t.Fatalf("branches after pushing topic: %q", got)
	}
	if out, err := gitCmd(t, dir, "push", "origin", ":topic"); err != nil {
		t.Fatalf("a push that only deletes: %v\n%s", err, out)
	}
	if got := branches(); got != "main" {
		t.Errorf("branches after deleting topic: %q", got)
	}
	if out, err := gitCmd(t, dir, "push", "origin", ":main"); err == nil || !strings.Contains(out, "deletion of the current branch prohibited") {
		t.Errorf("deleting the default branch: %v\n%s", err, out)
	}
	if got := branches(); got != "main" {
		t.Errorf("branches after trying to delete main: %q", got)
	}
	// git itself sends this one (its check-ref-format accepts it).
	if out, err := gitCmd(t, dir, "push", "origin", "HEAD:refs/heads/main\u202etxt.exe"); err == nil || !strings.Contains(out, "invalid ref name") {
		t.Errorf("a name holding U+202E: %v\n%s", err, out)
	}
	// git refuses to send these: a hand-made request does.
	head := strings.TrimSpace(mustGit(t, dir, "rev-parse", "HEAD"))
	for _, name := range []string{"a..b", "x.lock", "@{-1}", "ctl\x01char", ".hidden", "end.", "a//b", "a~1", "x:y", "zero\u200bwidth"} {
		report := rawPush(t, s, alice, "refs/heads/"+name, head)
		if !strings.Contains(report, "ng refs/heads/"+name+" invalid ref name") {
			t.Errorf("pushing refs/heads/%s: report %q", name, report)
		}
	}
	if got := branches(); got != "main" {
		t.Errorf("branches after refused names: %q", got)
	}
	// A pack whose one object is a delta of a base nobody has fails the
	// push whole, and leaves nothing behind.
	thin := "PACK\x00\x00\x00\x02\x00\x00\x00\x01" + "\x75" + strings.Repeat("\x11", 20) + "\x78\x9c\x03\x00\x00\x00\x00\x01"
	if report := rawPushPack(t, s, alice, "refs/heads/thin", head, thin); !strings.Contains(report, "unpack a delta's base object is neither in the pack nor in the repository") {
		t.Errorf("a pack with a missing base: %q", report)
	}
	if dataDir != "" {
		left, _ := filepath.Glob(filepath.Join(dataDir, "git", "*.git", "objects", "pack", "tmp_*"))
		if len(left) > 0 {
			t.Errorf("a failed push left %v", left)
		}
	}
	for _, tag := range []string{"v1..2", "v1.lock", "v1\u202e"} {
		want(t, call(t, s, "POST", "/repos/alice/app/releases", alice, map[string]string{"tag_name": tag}), 400)
	}
}

// rawPush sends receive-pack a create of ref at sha with an empty pack,
// as git would if its own checks let the name through, and returns the
// report.
func rawPush(t *testing.T, s *refserver.Server, token, ref, sha string) string {
	t.Helper()
	return rawPushPack(t, s, token, ref, sha, "PACK\x00\x00\x00\x02\x00\x00\x00\x00")
}

// rawPushPack sends receive-pack a create of ref at sha with the pack
// pack (its checksum added).
func rawPushPack(t *testing.T, s *refserver.Server, token, ref, sha, pack string) string {
	t.Helper()
	return rawUpdate(t, s, token, ref, strings.Repeat("0", 40), sha, pack)
}

// rawUpdate sends receive-pack a move of ref from old to sha with the
// pack pack (its checksum added), and returns the report.
func rawUpdate(t *testing.T, s *refserver.Server, token, ref, old, sha, pack string) string {
	t.Helper()
	cmd := fmt.Sprintf("%s %s %s\x00report-status\n", old, sha, ref)
	body := fmt.Sprintf("%04x%s0000", len(cmd)+4, cmd)
	sum := sha1.Sum([]byte(pack))
	status, report := postPush(t, s, token, strings.NewReader(body+pack+string(sum[:])), false)
	if status != 200 {
		t.Fatalf("receive-pack answered %d %s", status, report)
	}
	return report
}

// TestGitPushMustBeConnected: a push whose new ref value reaches an
// object that is in neither its pack nor the repository (a commit whose
// tree is absent, a tree whose blob is) leaves the ref where it was, with
// git's "missing necessary objects" for it and "unpack ok"; also when the
// commit itself was stored by such a refused push before. A complete
// pack of the same kind moves the ref. In memory and on disk.
func TestGitPushMustBeConnected(t *testing.T) {
	needGit(t)
	t.Parallel()
	t.Run("memory", func(t *testing.T) { t.Parallel(); testConnected(t, "") })
	t.Run("disk", func(t *testing.T) { t.Parallel(); testConnected(t, t.TempDir()) })
}

func testConnected(t *testing.T, dataDir string) {
	s, alice, dir := clonedApp(t, dataDir)
	head := strings.TrimSpace(mustGit(t, dir, "rev-parse", "HEAD"))
	// commit makes, without pushing, a commit on HEAD adding name.
	commit := func(name string) (c, tree, blob string) {
		mustGit(t, dir, "read-tree", head)
		os.WriteFile(filepath.Join(dir, name), []byte("content of "+name+"\n"), 0o644)
		blob = strings.TrimSpace(mustGit(t, dir, "hash-object", "-w", name))
		mustGit(t, dir, "update-index", "--add", "--cacheinfo", "100644,"+blob+","+name)
		tree = strings.TrimSpace(mustGit(t, dir, "write-tree"))
		c = strings.TrimSpace(mustGit(t, dir, "commit-tree", tree, "-p", head, "-m", "add "+name))
		return c, tree, blob
	}
	// pack is git's pack of exactly objects, without its checksum.
	pack := func(objects ...string) string {
		out, err := gitInput(t, dir, strings.Join(objects, "\n")+"\n", "pack-objects", "--stdout")
		if err != nil {
			t.Fatalf("git pack-objects: %v\n%s", err, out)
		}
		return out[:len(out)-20]
	}
	branches := func() string {
		var names []string
		for _, b := range want(t, call(t, s, "GET", "/repos/alice/app/branches", alice, nil), 200).arr {
			b := b.(map[string]any)
			names = append(names, b["name"].(string)+"@"+b["commit"].(map[string]any)["sha"].(string)[:7])
		}
		return strings.Join(names, " ")
	}
	before := branches()
	refused := func(report, ref, missing string) {
		t.Helper()
		if !strings.Contains(report, "unpack ok") || !strings.Contains(report, "ng "+ref+" missing necessary objects: ") || !strings.Contains(report, missing) {
			t.Errorf("report %q, want ng %s missing necessary objects naming %s", report, ref, missing)
		}
	}

	noTree, tree, _ := commit("a.txt")
	refused(rawPushPack(t, s, alice, "refs/heads/broken", noTree, pack(noTree)), "refs/heads/broken", "tree "+tree)
	refused(rawUpdate(t, s, alice, "refs/heads/main", head, noTree, pack(noTree)), "refs/heads/main", "tree "+tree)
	// The commit is stored now (its pack was), and still not connected.
	refused(rawPush(t, s, alice, "refs/heads/broken", noTree), "refs/heads/broken", "tree "+tree)
	noBlob, tree2, blob := commit("b.txt")
	refused(rawPushPack(t, s, alice, "refs/heads/broken", noBlob, pack(noBlob, tree2)), "refs/heads/broken", "blob "+blob)
	// Its child keeps the tree: a child's entries its parent holds are
	// left out of its check, and the parent's own check finds the blob
	// missing.
	child := strings.TrimSpace(mustGit(t, dir, "commit-tree", tree2, "-p", noBlob, "-m", "child"))
	refused(rawPushPack(t, s, alice, "refs/heads/broken", child, pack(child, noBlob, tree2)), "refs/heads/broken", "blob "+blob)
	if got := branches(); got != before {
		t.Errorf("branches after refused pushes: %q, want %q", got, before)
	}

	whole, tree3, blob3 := commit("c.txt")
	if report := rawPushPack(t, s, alice, "refs/heads/whole", whole, pack(whole, tree3, blob3)); !strings.Contains(report, "ok refs/heads/whole") {
		t.Errorf("a complete pack: %q", report)
	}
	if got := branches(); got != before+" whole@"+whole[:7] {
		t.Errorf("branches after a complete push: %q", got)
	}
}
