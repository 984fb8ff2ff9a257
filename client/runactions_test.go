package client_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/refserver/refservertest"
)

// TestRunActionsAgainstRefserver: cancel stops a run in progress (409 once
// it is over), re-run starts a new run at the same commit.
func TestRunActionsAgainstRefserver(t *testing.T) {
	srv := refservertest.Start(t, refservertest.Demo(), refservertest.CITick(time.Hour))
	token := refservertest.User(t, srv, "alice", "")
	c, err := client.New(srv.BaseURL(), token)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	repo := client.RepoName{Owner: "alice", Name: "webapp"}
	runs := check(client.Collect(c.Actions.ListRuns(ctx, repo, client.RunListOptions{Branch: "slog"}), 0)).in(t)
	run := runs[0]
	if run.Status != "in_progress" {
		t.Fatalf("the slog run is %s", run.Status)
	}
	got := check(c.Actions.CancelRun(ctx, repo, run.ID)).in(t)
	if got.ID != run.ID {
		t.Errorf("cancel answered run %d", got.ID)
	}
	if r := check(c.Actions.GetRun(ctx, repo, run.ID)).in(t); r.Conclusion != "cancelled" {
		t.Errorf("after cancel the run is %s/%s", r.Status, r.Conclusion)
	}
	_, err = c.Actions.CancelRun(ctx, repo, run.ID)
	if !client.HasStatus(err, http.StatusConflict) || client.NotOffered(err) {
		t.Errorf("cancelling a completed run: %v", err)
	}
	next := check(c.Actions.RerunRun(ctx, repo, run.ID)).in(t)
	if next.ID == run.ID || next.HeadSHA != run.HeadSHA || next.HeadBranch != "slog" {
		t.Errorf("re-run gave run %d at %s on %s", next.ID, next.HeadSHA, next.HeadBranch)
	}
	// A run that does not exist is a 404 too: NotOffered cannot tell it
	// from a missing endpoint (the TUI reads the run to know).
	if _, err := c.Actions.CancelRun(ctx, repo, 999999); !client.NotOffered(err) {
		t.Errorf("cancelling no run: %v", err)
	}
}
