package chatview

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/tuitest"
)

var webapp = client.RepoName{Owner: "alice", Name: "webapp"}

// TestAskAttachesAndTheAgentSeesIt: another view's ask key attaches a
// failed run; its suggested question waits in the input; sent, the
// reference agent's reply names the job that failed — the context
// arrived.
func TestAskAttachesAndTheAgentSeesIt(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	ctx := tuitest.Context(t, srv, "alice")
	c, _ := ctx.REST()
	runs, err := client.Collect(c.Actions.ListRuns(context.Background(), webapp, client.RunListOptions{Status: "failure"}), 0)
	if err != nil || len(runs) == 0 {
		t.Fatalf("no failed run: %v", err)
	}
	ref := "run:" + strconv.FormatInt(runs[0].ID, 10)
	v := New(ctx)
	// Wide enough that no sentence of the reply wraps.
	d := tuitest.Drive(t, v, 240, 40)
	d.UntilView("model ref-1 (default)")
	d.Send(common.AskAgentMsg{Repo: webapp, Ref: ref, Prompt: "Why did this run fail?"})
	d.UntilView("Attached " + ref + " (CI run")
	if got := v.input.Value(); got != "Why did this run fail?" || !v.input.Focused() {
		t.Errorf("the input holds %q (focused %v)", got, v.input.Focused())
	}
	d.Key("enter")
	view := d.UntilView("The run failed in job test")
	if !strings.Contains(view, "You attached "+ref) {
		t.Errorf("the agent did not see the attachment:\n%s", view)
	}
}

// TestWithCommand: /with in the TUI's chat attaches from the current
// repository; without one it says how to choose one.
func TestWithCommand(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	ctx := tuitest.Context(t, srv, "alice")
	v := New(ctx)
	d := tuitest.Drive(t, v, 100, 30)
	d.UntilView("model ref-1 (default)")
	d.Type("/with issue:1")
	d.Key("enter")
	d.UntilView("no repository chosen yet")
	d.Until("the command's end", func() bool { return v.busy == "" })
	ctx.Repo = webapp
	d.Type("/with issue:1")
	d.Key("enter")
	d.UntilView("Attached issue:1 (Issue #1 in alice/webapp")
	d.Until("the command's end", func() bool { return v.busy == "" })
	d.Type("/context")
	d.Key("enter")
	d.UntilView("goes with your next message")
}
