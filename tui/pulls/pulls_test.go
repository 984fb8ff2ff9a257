package pulls

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/tuitest"
)

// TestPullRequestPage: the description, the runs of the head commit,
// the diff of what the branch changed since it left main (a later change
// on the branch included, main's own later commits not), and a asking
// the agent about it.
func TestPullRequestPage(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	if _, err := srv.CommitFiles("alice/webapp", "slog", map[string]string{"log.go": "package main\n\nfunc logf() {\n\tprintln(\"slog\")\n}\n"}, "Add log.go"); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.CommitFiles("alice/webapp", "main", map[string]string{"main-only.txt": "not in the pull request\n"}, "On main"); err != nil {
		t.Fatal(err)
	}
	ctx := tuitest.Context(t, srv, "alice")
	c, _ := ctx.REST()
	pr, err := c.Pulls.Get(context.Background(), tuitest.Webapp, 3)
	if err != nil {
		t.Fatal(err)
	}
	pr.Head.SHA = "" // the branch as it is now, with log.go
	d := tuitest.Drive(t, NewPage(ctx, tuitest.Webapp, pr), 100, 30)
	d.UntilView("Structured logging with slog #3", "Closes #4.", "bob wants to merge slog into main")

	d.Key("l")
	d.UntilView("Checks")
	d.Key("l")
	v := d.UntilView("2 changed files", "added    CHANGES/slog.md +1 -0", "added    log.go +5 -0", "log.go · added", "@@ -0,0 +1,5 @@", "+    println(\"slog\")")
	if strings.Contains(v, "main-only.txt") {
		t.Errorf("the diff has main's own commit:\n%s", v)
	}
	d.Key("a")
	d.Until("a question about the pull request", func() bool {
		return d.Seen(func(m tea.Msg) bool {
			a, ok := m.(common.AskAgentMsg)
			return ok && a.Ref == "pull:3" && a.Repo == tuitest.Webapp && strings.Contains(a.Prompt, "pull request #3")
		})
	})
}

// TestChecksAreTheHeadCommitsRuns: the Checks section lists the runs of
// the head commit only.
func TestChecksAreTheHeadCommitsRuns(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	ctx := tuitest.Context(t, srv, "alice")
	c, _ := ctx.REST()
	pr, err := c.Pulls.Get(context.Background(), tuitest.Webapp, 3)
	if err != nil {
		t.Fatal(err)
	}
	d := tuitest.Drive(t, NewPage(ctx, tuitest.Webapp, pr), 100, 30)
	d.Key("l")
	v := d.UntilView("CI on slog")
	for _, other := range []string{"CI on router", "CI on main"} {
		if strings.Contains(v, other) {
			t.Errorf("Checks lists %q:\n%s", other, v)
		}
	}
}
