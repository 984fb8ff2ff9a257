package repo_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/testkit/clitest"
)

func setup(t *testing.T) *clitest.Harness {
	t.Helper()
	h := clitest.New(t)
	h.LoginAs("alice")
	h.Repo("alice", "app")
	return h
}

func exists(h *clitest.Harness, owner, name string) bool {
	_, ok := h.Srv.Store().RepoByName(owner, name)
	return ok
}

func TestDeleteAsksForTheName(t *testing.T) {
	h := setup(t)
	// A wrong name deletes nothing and fails.
	r := h.Run(clitest.Run{TTY: true, Answers: []any{"alice/ap"}}, "repo", "delete", "alice/app")
	if r.Code != 1 || !strings.Contains(r.Err, `"alice/ap" does not match alice/app; nothing deleted.`) {
		t.Fatalf("exit %d\n%s", r.Code, r.Output())
	}
	if !exists(h, "alice", "app") {
		t.Fatal("deleted after a wrong answer")
	}
	if len(r.Questions) != 1 || r.Questions[0] != "Type alice/app to confirm" {
		t.Errorf("questions = %q", r.Questions)
	}
	// An unknown repository fails before the question.
	r = h.Run(clitest.Run{TTY: true}, "repo", "delete", "alice/nope")
	if r.Code != 1 || !strings.Contains(r.Err, "HTTP 404") || len(r.Questions) != 0 {
		t.Fatalf("exit %d, questions %q\n%s", r.Code, r.Questions, r.Output())
	}
	// The right name deletes it.
	r = h.Run(clitest.Run{TTY: true, Answers: []any{"alice/app"}}, "repo", "delete", "alice/app")
	if r.Code != 0 || !strings.Contains(r.Err, "✓ Deleted repository alice/app") {
		t.Fatalf("exit %d\n%s", r.Code, r.Output())
	}
	if exists(h, "alice", "app") {
		t.Fatal("still there after the right answer")
	}
}

func TestContentsIsBinarySafe(t *testing.T) {
	h := setup(t)
	blob := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe\x00 trailing  \n\n"
	if _, err := h.Srv.CommitFiles("alice/app", "", map[string]string{"img/logo.png": blob, "notes.txt": "no newline"}, "Add files"); err != nil {
		t.Fatal(err)
	}
	h.Env["FORGE_REPO"] = "alice/app"
	r := h.Run(clitest.Run{}, "repo", "contents", "img/logo.png")
	if r.Code != 0 || r.Out != blob {
		t.Fatalf("exit %d, stdout %q, want %q\n%s", r.Code, r.Out, blob, r.Err)
	}
	r = h.Run(clitest.Run{}, "repo", "contents", "notes.txt")
	if r.Out != "no newline" {
		t.Errorf("stdout %q", r.Out)
	}
	// A terminal gets text, never raw binary.
	r = h.Run(clitest.Run{TTY: true}, "repo", "contents", "img/logo.png")
	if r.Code != 1 || r.Out != "" || !strings.Contains(r.Err, "forge: img/logo.png is a binary file (32 bytes); save it with `forge repo contents img/logo.png > FILE`") {
		t.Fatalf("exit %d\n%s", r.Code, r.Output())
	}
	r = h.Run(clitest.Run{TTY: true}, "repo", "contents", "notes.txt")
	if r.Code != 0 || r.Out != "no newline" {
		t.Fatalf("exit %d\n%s", r.Code, r.Output())
	}
}

// TestCloneHandsGitForgesHelperOnly runs clone with a stand-in git that
// records what it was given: forge's credential helper, for the service's
// origin only, after an entry that resets git's own; no token in the
// arguments or the environment.
func TestCloneHandsGitForgesHelperOnly(t *testing.T) {
	h := setup(t)
	bin := t.TempDir()
	record := filepath.Join(bin, "record")
	fake := "#!/bin/sh\n{ for a in \"$@\"; do echo \"arg:$a\"; done; echo \"prompt:$GIT_TERMINAL_PROMPT\"; env | sed 's/^/env:/'; } > " + record + "\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	r := h.Run(clitest.Run{}, "repo", "clone", "app", "work", "--", "--depth", "1")
	if r.Code != 0 {
		t.Fatalf("exit %d\n%s", r.Code, r.Output())
	}
	got, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(got), h.Env["FORGE_TOKEN"]) {
		t.Fatalf("git was given the token:\n%s", got)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(string(got)), "\n") {
		if !strings.HasPrefix(l, "env:") {
			lines = append(lines, l)
		}
	}
	origin := strings.TrimSuffix(h.Srv.URL(), "/")
	self, _ := os.Executable()
	want := []string{
		"arg:-c", "arg:credential." + origin + ".helper=",
		"arg:-c", "arg:credential." + origin + ".helper=!" + self + " auth git-credential",
		"arg:clone", "arg:--depth", "arg:1", "arg:--", "arg:" + origin + "/alice/app.git", "arg:work",
		"prompt:0",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("git got:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	// Over SSH no token is handed out at all.
	r = h.Run(clitest.Run{}, "repo", "clone", "alice/app", "--ssh")
	if r.Code != 0 {
		t.Fatalf("exit %d\n%s", r.Code, r.Output())
	}
	got, _ = os.ReadFile(record)
	if !strings.Contains(string(got), "arg:git@127.0.0.1:alice/app.git\n") || strings.Contains(string(got), "credential.") {
		t.Fatalf("git got:\n%s", got)
	}
	// A failing git is reported after its own message, exit 1.
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte("#!/bin/sh\necho 'fatal: boom' >&2\nexit 128\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r = h.Run(clitest.Run{}, "repo", "clone", "alice/app")
	if r.Code != 1 || !strings.HasSuffix(r.Err, "forge: git clone "+origin+"/alice/app.git failed (exit status 128)\n") {
		t.Fatalf("exit %d\n%s", r.Code, r.Output())
	}
}
