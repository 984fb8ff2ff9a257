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
	d := tuitest.Drive(t, NewView(ctx, tuitest.Webapp, &client.Commit{SHA: sha}), 100, 12)
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

// TestCommitPageSearch: / finds text in a commit's diff, n and N go from
// match to match while the search is on (from file to file after esc).
func TestCommitPageSearch(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	sha, err := srv.CommitFiles("alice/webapp", "", map[string]string{
		"a.go": "package main\n\n// greet says hello\nfunc greet() {}\n",
		"b.go": "package main\n\n// greet again\nfunc again() {}\n",
	}, "Greet twice")
	if err != nil {
		t.Fatal(err)
	}
	ctx := tuitest.Context(t, srv, "alice")
	p := NewView(ctx, tuitest.Webapp, &client.Commit{SHA: sha})
	d := tuitest.Drive(t, p, 100, 12)
	d.UntilView("Greet twice", "2 changed files")
	d.Key("/")
	if !p.Capturing() {
		t.Fatal("/ did not start a search")
	}
	d.Type("greet")
	d.Key("enter")
	d.UntilView("/greet", "match 1 of 4")
	d.Key("n")
	d.UntilView("match 2 of 4")
	d.Key("N")
	d.UntilView("match 1 of 4")
	d.Key("esc")
	if v := d.View(); strings.Contains(v, "/greet") || p.CanGoBack() {
		t.Errorf("esc did not clear the search:\n%s", v)
	}
	d.Key("g", "n")
	if v := d.View(); !strings.HasPrefix(v, "a.go · added") {
		t.Errorf("n after the search did not go to the first file:\n%s", v)
	}
}
