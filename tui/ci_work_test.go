package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/tui/tuitest"
)

// TestCIFailedRunToItsError: in the whole program, /fail keeps the failed
// run, enter opens it on its failed job, enter shows the job's log with
// short times, / finds the error line and highlights it, a query found
// nowhere says "no match".
func TestCIFailedRunToItsError(t *testing.T) {
	t.Parallel()
	h := start(t, tuitest.Server(t), "alice", 80, 24, Options{Repo: webapp, Tab: tabCI})
	h.wait("CI on slog")
	h.keys("/", "f", "a", "i", "l", "enter")
	s := h.wait("/fail", "1 match", "✗ CI on fix-empty-body")
	if strings.Contains(s, "CI on main") {
		t.Errorf("/fail keeps a run that did not fail:\n%s", s)
	}
	h.keys("enter")
	h.wait("▌ ✗ test")
	h.keys("enter")
	s = h.wait("test · failure · started 6d ago", "9 11:00:00 ##[error]Process completed with exit code 1.")
	if strings.Contains(s, "2026-11-14T") {
		t.Errorf("a log line keeps its 25-column timestamp:\n%s", s)
	}
	h.keys("/", "e", "x", "i", "t", "enter")
	h.wait("/exit match 1 of 1")
	if !strings.Contains(h.screen(), h.app.ctx.Styles.Cursor.Render("exit")) {
		t.Error("the match is not highlighted")
	}
	h.keys("/", "z", "z", "z", "enter")
	h.wait("/zzz no match")
	h.keys("esc")
	h.gone("no match")
}

// TestCICancelAndRerun: x asks before cancelling the run in progress, y
// cancels it on the server; R on the cancelled run starts a new one and
// opens it.
func TestCICancelAndRerun(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	h := start(t, srv, "alice", 80, 24, Options{Repo: webapp, Tab: tabCI})
	h.wait("CI on slog")
	h.keys("/", "s", "l", "o", "g", "enter", "enter")
	h.wait("in progress · pull_request on slog", "x cancel")
	h.keys("x")
	h.wait("(CI on slog)? Its unfinished jobs stop. [y/N]")
	h.keys("y")
	h.wait("Cancelling run", "⊘ CI on slog", "R re-run")
	c := tuitest.Client(t, srv, "alice")
	runs, err := client.Collect(c.Actions.ListRuns(context.Background(), webapp, client.RunListOptions{Branch: "slog"}), 0)
	if err != nil || len(runs) != 1 || runs[0].Conclusion != "cancelled" {
		t.Fatalf("the server's slog runs: %v", err)
	}
	h.keys("R")
	h.wait("runs again as run", "queued · pull_request on slog")
	runs, err = client.Collect(c.Actions.ListRuns(context.Background(), webapp, client.RunListOptions{Branch: "slog"}), 0)
	if err != nil || len(runs) != 2 {
		t.Fatalf("after R the server has %d slog runs (%v)", len(runs), err)
	}
}
