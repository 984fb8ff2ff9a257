package repo_test

import (
	"strings"
	"testing"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/testkit/clitest"
)

// TestViewRendersMarkdownByName: repo view renders a README that
// markdown.IsFile names (README.mdown: no ** left), and shows one without
// an extension as the text it is, as the TUI's file view does. repo view
// rendered a README without an extension as markdown.
func TestViewRendersMarkdownByName(t *testing.T) {
	h := clitest.New(t)
	h.LoginAs("alice")
	doc := "Notes\n\nSome **bold** words.\n"
	for repo, name := range map[string]string{"plain": "README", "mdown": "README.mdown"} {
		if _, err := h.Srv.CreateRepo("alice", repo, refserver.RepoOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := h.Srv.CommitFiles("alice/"+repo, "", map[string]string{name: doc}, "notes"); err != nil {
			t.Fatal(err)
		}
	}
	r := h.Run(clitest.Run{TTY: true}, "repo", "view", "alice/mdown")
	if r.Code != 0 || !strings.Contains(r.Out, "Some bold words.") || strings.Contains(r.Out, "**") {
		t.Errorf("README.mdown: exit %d\n%s", r.Code, r.Output())
	}
	r = h.Run(clitest.Run{TTY: true}, "repo", "view", "alice/plain")
	if r.Code != 0 || !strings.Contains(r.Out, "Some **bold** words.") {
		t.Errorf("README: exit %d\n%s", r.Code, r.Output())
	}
}
