package refserver_test

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
)

// needGit skips the test where the git binary is missing.
func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
}

// gitCmd runs the real git in dir with a clean, non-interactive setup.
func gitCmd(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	return gitInput(t, dir, "", args...)
}

// gitInput is gitCmd with stdin as git's standard input.
func gitInput(t *testing.T, dir, stdin string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Dir = dir
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_TERMINAL_PROMPT=0", "GIT_AUTHOR_NAME=Alice", "GIT_AUTHOR_EMAIL=alice@example.com",
		"GIT_COMMITTER_NAME=Alice", "GIT_COMMITTER_EMAIL=alice@example.com")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func mustGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := gitCmd(t, dir, args...)
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// TestGitOverHTTP drives the real git client against the smart HTTP
// server: clone, push (updating contents, commits and starting a run),
// fetch, a new branch, and the permission rules.
func TestGitOverHTTP(t *testing.T) {
	needGit(t)
	t.Parallel()
	s := refservertest.Start(t)
	alice := mustUser(t, s, "alice", "alice-password-123", "")
	bob := mustUser(t, s, "bob", "bob-password-1234", "")
	repo := want(t, call(t, s, "POST", "/repos", alice, map[string]any{"name": "app", "auto_init": true, "private": true}), 201)
	cloneURL := repo.str("clone_url")
	u, _ := url.Parse(cloneURL)
	u.User = url.UserPassword("alice", alice)
	authed := u.String()

	// No credentials, wrong ones, and a user who may not see it.
	if out, err := gitCmd(t, t.TempDir(), "clone", cloneURL, "x"); err == nil {
		t.Fatalf("anonymous clone worked: %s", out)
	}
	u.User = url.UserPassword("bob", bob)
	if out, err := gitCmd(t, t.TempDir(), "clone", u.String(), "x"); err == nil || !strings.Contains(out, "not found") {
		t.Fatalf("clone by a stranger: %v %s", err, out)
	}

	work := t.TempDir()
	mustGit(t, work, "clone", authed, "app")
	dir := filepath.Join(work, "app")
	if b, err := os.ReadFile(filepath.Join(dir, "README.md")); err != nil || string(b) != "# app\n" {
		t.Fatalf("cloned README %q %v", b, err)
	}
	os.MkdirAll(filepath.Join(dir, "src"), 0o755)
	os.WriteFile(filepath.Join(dir, "src", "main.go"), []byte("package main\n"), 0o644)
	mustGit(t, dir, "add", ".")
	mustGit(t, dir, "commit", "-q", "-m", "Add main.go")
	mustGit(t, dir, "push", "-q", "origin", "main")

	f := want(t, call(t, s, "GET", "/repos/alice/app/contents/src/main.go", alice, nil), 200)
	if b, _ := base64.StdEncoding.DecodeString(f.str("content")); string(b) != "package main\n" {
		t.Errorf("pushed file reads %q", b)
	}
	head := strings.TrimSpace(mustGit(t, dir, "rev-parse", "HEAD"))
	c := want(t, call(t, s, "GET", "/repos/alice/app/commits", alice, nil), 200)
	if len(c.arr) != 2 || c.arr[0].(map[string]any)["sha"] != head {
		t.Errorf("commits after push %s, want head %s", c.raw, head)
	}
	runs := want(t, call(t, s, "GET", "/repos/alice/app/actions/runs", alice, nil), 200)
	if len(runs.arr) != 1 {
		t.Fatalf("runs after push %s", runs.raw)
	}
	if r := runs.arr[0].(map[string]any); r["head_sha"] != head || r["event"] != "push" || r["status"] != "queued" || r["display_title"] != "Add main.go" {
		t.Errorf("run of the push %v", r)
	}

	// A second clone fetches what the first pushed; then an incremental
	// fetch with haves, a new branch, and "[skip ci]".
	other := t.TempDir()
	mustGit(t, other, "clone", "-q", authed, "app")
	odir := filepath.Join(other, "app")
	if strings.TrimSpace(mustGit(t, odir, "rev-parse", "HEAD")) != head {
		t.Error("second clone is not at the pushed head")
	}
	for i := 0; i < 3; i++ {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.txt", i)), []byte(strings.Repeat("line\n", i+1)), 0o644)
		mustGit(t, dir, "add", ".")
		mustGit(t, dir, "commit", "-q", "-m", fmt.Sprintf("Add f%d [skip ci]", i))
	}
	mustGit(t, dir, "push", "-q", "origin", "main")
	mustGit(t, odir, "pull", "-q", "--ff-only")
	if a, b := mustGit(t, dir, "rev-parse", "HEAD"), mustGit(t, odir, "rev-parse", "HEAD"); a != b {
		t.Errorf("fetch: %s vs %s", a, b)
	}
	mustGit(t, odir, "switch", "-q", "-c", "feature")
	os.WriteFile(filepath.Join(odir, "feature.txt"), []byte("x\n"), 0o644)
	mustGit(t, odir, "add", ".")
	mustGit(t, odir, "commit", "-q", "-m", "Feature [ci fail]")
	mustGit(t, odir, "push", "-q", "origin", "feature")
	br := want(t, call(t, s, "GET", "/repos/alice/app/branches", alice, nil), 200)
	if len(br.arr) != 2 {
		t.Errorf("branches %s", br.raw)
	}
	runs = want(t, call(t, s, "GET", "/repos/alice/app/actions/runs", alice, nil), 200)
	if len(runs.arr) != 2 || runs.arr[0].(map[string]any)["head_branch"] != "feature" {
		t.Errorf("runs after the skipped and the feature push %s", runs.raw)
	}

	// A read collaborator may clone but not push.
	if err := s.AddCollaborator("alice/app", "bob", "read"); err != nil {
		t.Fatal(err)
	}
	bobDir := t.TempDir()
	mustGit(t, bobDir, "clone", "-q", u.String(), "app")
	bdir := filepath.Join(bobDir, "app")
	os.WriteFile(filepath.Join(bdir, "bob.txt"), []byte("x\n"), 0o644)
	mustGit(t, bdir, "add", ".")
	mustGit(t, bdir, "commit", "-q", "-m", "Bob was here")
	if out, err := gitCmd(t, bdir, "push", "origin", "main"); err == nil || !strings.Contains(out, "403") && !strings.Contains(out, "write permission") {
		t.Errorf("push by a reader: %v %s", err, out)
	}
}

// TestGitPushToEmpty: the first push to an empty repository, on a branch
// other than main, becomes its default branch; in memory and on disk,
// where the pushed data survives a restart.
func TestGitPushToEmpty(t *testing.T) {
	needGit(t)
	t.Parallel()
	t.Run("memory", func(t *testing.T) { t.Parallel(); testPushToEmpty(t, "") })
	t.Run("disk", func(t *testing.T) { t.Parallel(); testPushToEmpty(t, t.TempDir()) })
}

func testPushToEmpty(t *testing.T, dataDir string) {
	s := refservertest.Start(t, refservertest.DataDir(dataDir))
	alice := mustUser(t, s, "alice", "alice-password-123", "")
	want(t, call(t, s, "POST", "/repos", alice, map[string]any{"name": "empty"}), 201)
	dir := t.TempDir()
	mustGit(t, dir, "init", "-q", "-b", "trunk")
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644)
	mustGit(t, dir, "add", ".")
	mustGit(t, dir, "commit", "-q", "-m", "First")
	u, _ := url.Parse(s.URL() + "/alice/empty.git")
	u.User = url.UserPassword("x", alice)
	mustGit(t, dir, "push", "-q", u.String(), "trunk")
	r := want(t, call(t, s, "GET", "/repos/alice/empty", alice, nil), 200)
	if r.str("default_branch") != "trunk" {
		t.Errorf("default branch %q", r.str("default_branch"))
	}
	want(t, call(t, s, "GET", "/repos/alice/empty/contents/a.txt", alice, nil), 200)
	clone := t.TempDir()
	mustGit(t, clone, "clone", "-q", u.String(), "c")
	if b, _ := os.ReadFile(filepath.Join(clone, "c", "a.txt")); string(b) != "a\n" {
		t.Errorf("clone of the pushed repo: %q", b)
	}
	if dataDir == "" {
		return
	}
	s.Close()
	s2 := refservertest.Start(t, refservertest.DataDir(dataDir))
	if r := want(t, call(t, s2, "GET", "/repos/alice/empty/commits", alice, nil), 200); len(r.arr) != 1 {
		t.Errorf("commits after restart %s", r.raw)
	}
	matches, _ := filepath.Glob(filepath.Join(dataDir, "git", "*.git"))
	for _, m := range matches {
		if out, err := gitCmd(t, m, "fsck"); err != nil {
			t.Errorf("git fsck %s: %v %s", m, err, out)
		}
	}
}

// uploadPackBomb is a gzip upload-pack request: one want, then haves
// lines of an object the repository lacks (50 bytes each, compressed
// about a thousand times).
func uploadPackBomb(t *testing.T, want string, haves int) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	fmt.Fprintf(zw, "%04xwant %s\n0000", 4+5+40+1, want)
	line := []byte(fmt.Sprintf("%04xhave %s\n", 4+5+40+1, strings.Repeat("1", 40)))
	for i := 0; i < haves; i++ {
		zw.Write(line)
	}
	zw.Close()
	return buf.Bytes()
}

// A have bomb (2 million lines, 100 MB gunzipped, 100 KB sent) is refused
// with 400 once past the limits, without the server allocating more than
// a few MB for it; the repository stays usable.
func TestGitUploadPackBombIsRefused(t *testing.T) {
	s := refservertest.Start(t)
	alice := mustUser(t, s, "alice", "alice-password-123", "")
	want(t, call(t, s, "POST", "/repos", alice, map[string]any{"name": "app", "auto_init": true}), 201)
	head := want(t, call(t, s, "GET", "/repos/alice/app/commits", alice, nil), 200).arr[0].(map[string]any)["sha"].(string)

	post := func(body []byte) (int, string) {
		t.Helper()
		req, _ := http.NewRequest("POST", s.URL()+"/alice/app.git/git-upload-pack", bytes.NewReader(body))
		req.SetBasicAuth("x", alice)
		req.Header.Set("Content-Encoding", "gzip")
		req.Header.Set("Content-Type", "application/x-git-upload-pack-request")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	bomb := uploadPackBomb(t, head, 2_000_000)
	// Flushes only: no have lines, 20 MiB gunzipped.
	var flushes bytes.Buffer
	zw := gzip.NewWriter(&flushes)
	zw.Write([]byte(fmt.Sprintf("%04xwant %s\n0000", 50, head)))
	zw.Write(bytes.Repeat([]byte("0000"), 5<<20))
	zw.Close()

	for _, tc := range []struct {
		name, errHas string
		body         []byte
	}{
		{"haves", "more than 65536 have lines", bomb},
		{"size", "request over 10 MiB", flushes.Bytes()},
	} {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		status, msg := post(tc.body)
		runtime.ReadMemStats(&after)
		if status != http.StatusBadRequest || !strings.Contains(msg, tc.errHas) {
			t.Errorf("%s bomb: %d %q, want 400 %q", tc.name, status, msg, tc.errHas)
		}
		// Everything allocated during the request bounds its peak.
		alloc := after.TotalAlloc - before.TotalAlloc
		t.Logf("%s bomb: %d, %.1f MB allocated", tc.name, status, float64(alloc)/(1<<20))
		if alloc > 32<<20 {
			t.Errorf("%s bomb: %d MB allocated, want under 32 MB", tc.name, alloc>>20)
		}
	}
	// The repository is not held: a clone and a push work.
	u, _ := url.Parse(s.URL() + "/alice/app.git")
	u.User = url.UserPassword("x", alice)
	if _, err := exec.LookPath("git"); err == nil {
		dir := t.TempDir()
		mustGit(t, dir, "clone", "-q", u.String(), "app")
		os.WriteFile(filepath.Join(dir, "app", "b.txt"), []byte("b\n"), 0o644)
		mustGit(t, filepath.Join(dir, "app"), "add", ".")
		mustGit(t, filepath.Join(dir, "app"), "commit", "-q", "-m", "After the bomb [skip ci]")
		mustGit(t, filepath.Join(dir, "app"), "push", "-q", "origin", "main")
	}
}

// Shallow clones and fetches with the real git: --depth 1, a fetch into
// the shallow clone, --deepen, --unshallow, each leaving a repository
// git fsck accepts; --shallow-since is refused with a message.
func TestGitShallowClone(t *testing.T) {
	needGit(t)
	t.Parallel()
	s := refservertest.Start(t)
	alice := mustUser(t, s, "alice", "alice-password-123", "")
	if _, err := s.CreateRepo("alice", "app", refserver.RepoOptions{AutoInit: true}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		if _, err := s.CommitFiles("alice/app", "", map[string]string{fmt.Sprintf("f%d.txt", i): strings.Repeat("x\n", i+1)}, fmt.Sprintf("Commit %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	u, _ := url.Parse(s.URL() + "/alice/app.git")
	u.User = url.UserPassword("x", alice)
	dir := t.TempDir()
	mustGit(t, dir, "clone", "-q", "--depth", "1", u.String(), "app")
	app := filepath.Join(dir, "app")
	count := func(want string, step string) {
		t.Helper()
		if got := strings.TrimSpace(mustGit(t, app, "rev-list", "--count", "HEAD")); got != want {
			t.Errorf("%s: %s commits, want %s", step, got, want)
		}
		mustGit(t, app, "fsck", "--no-progress")
	}
	count("1", "clone --depth 1")
	if got := strings.TrimSpace(mustGit(t, app, "rev-parse", "--is-shallow-repository")); got != "true" {
		t.Errorf("is-shallow-repository %s", got)
	}
	if b, err := os.ReadFile(filepath.Join(app, "f3.txt")); err != nil || string(b) != "x\nx\nx\nx\n" {
		t.Errorf("f3.txt %q %v", b, err)
	}
	if _, err := s.CommitFiles("alice/app", "", map[string]string{"new.txt": "new\n"}, "After the clone"); err != nil {
		t.Fatal(err)
	}
	mustGit(t, app, "pull", "-q", "--ff-only")
	count("2", "fetch into the shallow clone")
	// A push from the shallow clone, and a merge: history with two
	// parents to cut.
	os.WriteFile(filepath.Join(app, "pushed.txt"), []byte("p\n"), 0o644)
	mustGit(t, app, "add", ".")
	mustGit(t, app, "commit", "-q", "-m", "From the shallow clone [skip ci]")
	mustGit(t, app, "push", "-q", "origin", "main")
	count("3", "push from the shallow clone")
	// Not to a repository that lacks the clone's boundary commit: its
	// parents would be missing there.
	want(t, call(t, s, "POST", "/repos", alice, map[string]any{"name": "other"}), 201)
	o, _ := url.Parse(s.URL() + "/alice/other.git")
	o.User = url.UserPassword("x", alice)
	if out, err := gitCmd(t, app, "push", o.String(), "main"); err == nil {
		t.Errorf("push of a shallow history to a repository without its base: %s", out)
	}
	if r := want(t, call(t, s, "GET", "/repos/alice/other/commits", alice, nil), 200); len(r.arr) != 0 {
		t.Errorf("the refused push left commits: %s", r.raw)
	}
	mustGit(t, app, "switch", "-q", "-c", "side", "HEAD~1")
	os.WriteFile(filepath.Join(app, "side.txt"), []byte("s\n"), 0o644)
	mustGit(t, app, "add", ".")
	mustGit(t, app, "commit", "-q", "-m", "Side [skip ci]")
	mustGit(t, app, "switch", "-q", "main")
	mustGit(t, app, "merge", "-q", "--no-edit", "side")
	mustGit(t, app, "push", "-q", "origin", "main")
	merged := t.TempDir()
	mustGit(t, merged, "clone", "-q", "--depth", "2", u.String(), "m")
	if got := strings.TrimSpace(mustGit(t, filepath.Join(merged, "m"), "rev-list", "--count", "HEAD")); got != "3" {
		t.Errorf("clone --depth 2 of a merge: %s commits, want 3 (the merge and its two parents)", got)
	}
	mustGit(t, filepath.Join(merged, "m"), "fsck", "--no-progress")
	mustGit(t, app, "fetch", "-q", "--deepen", "2")
	count("7", "fetch --deepen 2")
	mustGit(t, app, "fetch", "-q", "--unshallow")
	count("9", "fetch --unshallow")
	if out, err := gitCmd(t, t.TempDir(), "clone", "--shallow-since", "2000-01-01", u.String(), "x"); err == nil || !strings.Contains(out, "does not support --shallow-since") {
		t.Errorf("clone --shallow-since: %v %s", err, out)
	}
}
