package changes

import (
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
)

// TestPullFileRemovedAndAddedAgain: a pull request whose commits remove
// a file of the base and then add it back changed it, and its diff is
// against the base's file (it was listed as added, the whole file new).
func TestPullFileRemovedAndAddedAgain(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	srv := refservertest.Start(t)
	tok := refservertest.User(t, srv, "alice", "")
	if _, err := srv.CreateRepo("alice", "app", refserver.RepoOptions{AutoInit: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.CommitFiles("alice/app", "", map[string]string{"keep.txt": "one\ntwo\nthree\n"}, "Add keep.txt"); err != nil {
		t.Fatal(err)
	}
	c, err := client.New(srv.BaseURL(), tok)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	repo := client.RepoName{Owner: "alice", Name: "app"}
	r, err := c.Repos.Get(ctx, repo)
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(r.CloneURL)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword("alice", tok)
	work := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "HOME="+work, "XDG_CONFIG_HOME="+work, "GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0",
			"GIT_AUTHOR_NAME=Alice", "GIT_AUTHOR_EMAIL=alice@example.com", "GIT_COMMITTER_NAME=Alice", "GIT_COMMITTER_EMAIL=alice@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	git("clone", "-q", u.String(), "app")
	work = filepath.Join(work, "app")
	git("checkout", "-q", "-b", "topic")
	git("rm", "-q", "keep.txt")
	git("commit", "-q", "-m", "Remove keep.txt")
	if err := os.WriteFile(filepath.Join(work, "keep.txt"), []byte("one\n2\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "keep.txt")
	git("commit", "-q", "-m", "Bring keep.txt back")
	git("push", "-q", "origin", "topic")
	seed, err := srv.CreatePull("alice/app", refserver.PullSeed{Title: "Renumber", Head: "topic", Base: "main"})
	if err != nil {
		t.Fatal(err)
	}
	pr, err := c.Pulls.Get(ctx, repo, seed.Number)
	if err != nil {
		t.Fatal(err)
	}
	files, diffs, err := Pull(ctx, c, repo, pr)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Filename != "keep.txt" || files[0].Status != "modified" {
		t.Errorf("files: %+v", files)
	}
	if len(diffs) != 1 || diffs[0].Added != 1 || diffs[0].Removed != 1 || !strings.Contains(diffs[0].Unified, "-two\n+2\n") {
		t.Errorf("diffs: %+v", diffs)
	}
}
