package issue_test

import (
	"strings"
	"testing"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/testkit/clitest"
)

// Without a NUMBER on a terminal, issue view and pr view offer the recent
// open ones; without a terminal it stays the usage error it was.
func TestViewPicksOnATerminal(t *testing.T) {
	h := clitest.New(t)
	h.LoginAs("alice")
	if _, err := h.Srv.CreateRepo("alice", "demo", refserver.RepoOptions{AutoInit: true}); err != nil {
		t.Fatal(err)
	}
	for _, title := range []string{"First", "Second"} {
		if _, err := h.Srv.CreateIssue("alice/demo", "alice", title, ""); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := h.Srv.CreatePull("alice/demo", refserver.PullSeed{Title: "A change", Head: "feature"}); err != nil {
		t.Fatal(err)
	}
	res := h.Run(clitest.Run{TTY: true, Answers: []any{"2"}}, "issue", "view", "-R", "alice/demo", "--json", "title", "--jq", ".title")
	if res.Code != 0 || strings.TrimSpace(res.Out) != "First" {
		t.Fatalf("issue view: exit %d, stdout %q\n%s", res.Code, res.Out, res.Err)
	}
	if !strings.Contains(res.Err, "  1  #2  Second (alice)") || len(res.Questions) != 1 {
		t.Errorf("stderr:\n%s\nquestions %q", res.Err, res.Questions)
	}
	res = h.Run(clitest.Run{TTY: true, Answers: []any{"1"}}, "pr", "view", "-R", "alice/demo", "--json", "title", "--jq", ".title")
	if res.Code != 0 || strings.TrimSpace(res.Out) != "A change" {
		t.Fatalf("pr view: exit %d, stdout %q\n%s", res.Code, res.Out, res.Err)
	}
	res = h.Run(clitest.Run{}, "issue", "view", "-R", "alice/demo")
	if res.Code != 2 || !strings.Contains(res.Err, "missing an issue NUMBER") {
		t.Errorf("no terminal: exit %d\n%s", res.Code, res.Err)
	}
}
