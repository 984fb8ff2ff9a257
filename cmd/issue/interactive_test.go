package issue_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/forgehq/forge/refserver/store"
	"github.com/forgehq/forge/testkit/clitest"
)

// These tests cover what needs a terminal — the title prompt and the
// editor — and the drafts kept when a request fails, against a reference
// server on loopback.

func setup(t *testing.T) *clitest.Harness {
	t.Helper()
	h := clitest.New(t)
	h.LoginAs("alice")
	h.Repo("alice", "app")
	h.Env["FORGE_REPO"] = "alice/app"
	// Drafts go to the process's temp directory: one per test, to check
	// what is left in it.
	t.Setenv("TMPDIR", t.TempDir())
	return h
}

// editor writes a script that acts as the user's editor: it writes text
// into the file it is given and exits with code.
func editor(t *testing.T, text string, code int) string {
	t.Helper()
	dir := t.TempDir()
	textFile := filepath.Join(dir, "text")
	if err := os.WriteFile(textFile, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "editor")
	body := "#!/bin/sh\ncat '" + textFile + "' > \"$1\"\nexit " + string(rune('0'+code)) + "\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return script
}

func issue(t *testing.T, h *clitest.Harness, number int64) store.Issue {
	t.Helper()
	repo, ok := h.Srv.Store().RepoByName("alice", "app")
	if !ok {
		t.Fatal("no repository alice/app")
	}
	is, _, ok := h.Srv.Store().IssueByNumber(repo.ID, number)
	if !ok {
		t.Fatalf("no issue #%d", number)
	}
	return is
}

func TestCreateAsksTitleAndOpensEditor(t *testing.T) {
	h := setup(t)
	h.Env["VISUAL"] = editor(t, "Written in the editor.\n", 0)
	h.Env["EDITOR"] = "false" // VISUAL wins
	r := h.Run(clitest.Run{TTY: true, Answers: []any{"  Crash on start  "}}, "issue", "create")
	if r.Code != 0 {
		t.Fatalf("exit %d\n%s", r.Code, r.Output())
	}
	if len(r.Questions) != 1 || r.Questions[0] != "Title" {
		t.Errorf("questions = %q, want the title only", r.Questions)
	}
	is := issue(t, h, 1)
	if is.Title != "Crash on start" || is.Body != "Written in the editor.\n" {
		t.Errorf("issue = %q / %q", is.Title, is.Body)
	}
	if !strings.HasSuffix(strings.TrimSpace(r.Out), "/alice/app/issues/1") {
		t.Errorf("stdout = %q, want the issue's address", r.Out)
	}
	if left, _ := filepath.Glob(filepath.Join(os.TempDir(), "*")); len(left) != 0 {
		t.Errorf("draft files left behind once sent: %v", left)
	}
}

func TestCreateEmptyTitleOnTerminal(t *testing.T) {
	h := setup(t)
	r := h.Run(clitest.Run{TTY: true, Answers: []any{" "}}, "issue", "create", "--body", "x")
	if r.Code != 2 || !strings.Contains(r.Err, "forge: an issue needs a title") {
		t.Fatalf("exit %d\n%s", r.Code, r.Output())
	}
}

// draftPath finds the file forge named in its error.
var draftPath = regexp.MustCompile(`your text is kept in (\S+): send it again with --body-file (\S+)\n`)

func TestCreateKeepsEditedBodyWhenRefused(t *testing.T) {
	h := setup(t)
	text := "Long text I typed.\n\nIt must survive.\n"
	h.Env["VISUAL"] = editor(t, text, 0)
	long := strings.Repeat("x", 300) // the service allows 256 characters
	r := h.Run(clitest.Run{TTY: true}, "issue", "create", "--title", long)
	if r.Code != 1 {
		t.Fatalf("exit %d, want 1\n%s", r.Code, r.Output())
	}
	m := draftPath.FindStringSubmatch(r.Err)
	if m == nil || m[1] != m[2] {
		t.Fatalf("no draft path in %q", r.Err)
	}
	if !strings.Contains(r.Err, "\nforge: HTTP 400: title must be at most 256 characters") {
		t.Errorf("stderr = %q", r.Err)
	}
	got, err := os.ReadFile(m[1])
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != text {
		t.Errorf("draft = %q, want %q", got, text)
	}
	// It can be sent again as it is.
	r = h.Run(clitest.Run{}, "issue", "create", "--title", "Retry", "--body-file", m[1])
	if r.Code != 0 || issue(t, h, 1).Body != text {
		t.Fatalf("retry: exit %d\n%s", r.Code, r.Output())
	}
}

func TestEditorFailureKeepsText(t *testing.T) {
	h := setup(t)
	h.Env["VISUAL"] = editor(t, "half written", 3)
	r := h.Run(clitest.Run{TTY: true}, "issue", "create", "--title", "T")
	if r.Code != 1 || !strings.Contains(r.Err, "the editor (") {
		t.Fatalf("exit %d\n%s", r.Code, r.Output())
	}
	m := draftPath.FindStringSubmatch(r.Err)
	if m == nil {
		t.Fatalf("no draft path in %q", r.Err)
	}
	if got, _ := os.ReadFile(m[1]); string(got) != "half written" {
		t.Errorf("draft = %q", got)
	}
	if _, _, ok := h.Srv.Store().IssueByNumber(1, 1); ok {
		t.Error("an issue was created although the editor failed")
	}
}

func TestCommentInEditor(t *testing.T) {
	h := setup(t)
	if _, err := h.Srv.CreateIssue("alice/app", "", "Crash", ""); err != nil {
		t.Fatal(err)
	}
	h.Env["VISUAL"] = ""
	h.Env["EDITOR"] = editor(t, "From $EDITOR.\n", 0)
	r := h.Run(clitest.Run{TTY: true}, "issue", "comment", "1")
	if r.Code != 0 {
		t.Fatalf("exit %d\n%s", r.Code, r.Output())
	}
	if n := issue(t, h, 1).Comments; n != 1 {
		t.Fatalf("%d comments, want 1", n)
	}
	// An empty comment is not sent.
	h.Env["EDITOR"] = editor(t, "\n  \n", 0)
	r = h.Run(clitest.Run{TTY: true}, "issue", "comment", "1")
	if r.Code != 2 || !strings.Contains(r.Err, "the comment is empty; nothing sent") {
		t.Fatalf("exit %d\n%s", r.Code, r.Output())
	}
	if n := issue(t, h, 1).Comments; n != 1 {
		t.Fatalf("%d comments after an empty one, want 1", n)
	}
}
