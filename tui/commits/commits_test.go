package commits

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/tuitest"
)

// TestCommitPage: a commit's message, its changed files with their
// counts and the diff against its parent, tabs shown as spaces; n goes
// to the next file's diff; a asks the agent about the commit.
func TestCommitPage(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	if _, err := srv.CommitFiles("alice/webapp", "", map[string]string{"hello.go": "package main\n\nfunc hello() {\n\tprintln(\"hi\")\n}\n"}, "Add hello"); err != nil {
		t.Fatal(err)
	}
	sha, err := srv.CommitFiles("alice/webapp", "", map[string]string{
		"hello.go": "package main\n\nfunc hello() {\n\tprintln(\"hello\")\n}\n",
		"NOTES":    "one\n",
	}, "Say hello\n\nIn full.")
	if err != nil {
		t.Fatal(err)
	}
	ctx := tuitest.Context(t, srv, "alice")
	d := tuitest.Drive(t, NewView(ctx, client.RepoName{Owner: "alice", Name: "webapp"}, &client.Commit{SHA: sha}), 100, 12)
	d.UntilView("commit "+sha, "Say hello", "In full.", "2 changed files", "added    NOTES +1 -0", "modified hello.go +1 -1")
	d.Key("n")
	if v := d.View(); !strings.HasPrefix(v, "NOTES · added") {
		t.Errorf("n did not go to the first file:\n%s", v)
	}
	d.Key("n")
	v := d.UntilView("hello.go · modified", "-    println(\"hi\")", "+    println(\"hello\")")
	if strings.Contains(v, "\t") {
		t.Errorf("a tab reached the view:\n%q", v)
	}
	d.Key("a")
	d.Until("a question about the commit", func() bool {
		return d.Seen(func(m tea.Msg) bool { a, ok := m.(common.AskAgentMsg); return ok && a.Ref == "commit:"+sha })
	})
}
