package ci

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/tuitest"
)

// runOn finds the demo's run of alice/webapp on branch.
func runOn(t *testing.T, ctx *common.Context, branch string) *client.WorkflowRun {
	t.Helper()
	c, _ := ctx.REST()
	runs, err := client.Collect(c.Actions.ListRuns(context.Background(), tuitest.Webapp, client.RunListOptions{Branch: branch}), 0)
	if err != nil || len(runs) == 0 {
		t.Fatalf("no run on %s: %v", branch, err)
	}
	return runs[0]
}

// status waits for a status line containing want.
func status(t *testing.T, d *tuitest.Driver, want string) {
	t.Helper()
	d.Until("the status "+want, func() bool {
		return d.Seen(func(m tea.Msg) bool { s, ok := m.(common.StatusMsg); return ok && strings.Contains(s.Text, want) })
	})
}

// TestCancelRunAsksFirst: x asks; n leaves the run alone, y cancels it on
// the server, and the page shows it cancelled.
func TestCancelRunAsksFirst(t *testing.T) {
	t.Parallel()
	ctx := tuitest.Context(t, tuitest.Server(t), "alice")
	run := runOn(t, ctx, "slog")
	j := NewJobs(ctx, tuitest.Webapp, run)
	d := tuitest.Drive(t, j, 80, 20)
	d.UntilView("in progress")
	d.Key("x")
	d.UntilView("Cancel run", "(CI on slog)? Its unfinished jobs stop. [y/N]")
	if !j.Capturing() {
		t.Error("the question does not take the next key")
	}
	d.Key("n")
	status(t, d, "Cancelled.")
	if v := d.View(); strings.Contains(v, "[y/N]") {
		t.Errorf("the question stays after n:\n%s", v)
	}
	c, _ := ctx.REST()
	if r, err := c.Actions.GetRun(context.Background(), tuitest.Webapp, run.ID); err != nil || r.Conclusion == "cancelled" {
		t.Fatalf("n cancelled the run (%v)", err)
	}
	d.Key("x", "y")
	status(t, d, "Cancelling run")
	d.UntilView("⊘ CI on slog", "cancelled · pull_request on slog")
	if r, err := c.Actions.GetRun(context.Background(), tuitest.Webapp, run.ID); err != nil || r.Conclusion != "cancelled" {
		t.Fatalf("the server says the run is %s (%v)", r.Conclusion, err)
	}
	// A finished run is not cancelled again.
	d.Key("x")
	status(t, d, "has finished (cancelled): nothing to cancel")
}

// TestRerunOpensTheNewRun: R starts the run again on the server and opens
// the new run's page.
func TestRerunOpensTheNewRun(t *testing.T) {
	t.Parallel()
	ctx := tuitest.Context(t, tuitest.Server(t), "alice")
	run := failedRun(t, ctx)
	j := NewJobs(ctx, tuitest.Webapp, run)
	d := tuitest.Drive(t, j, 80, 20)
	d.UntilView("✗ test")
	d.Key("R")
	var next *Jobs
	d.Until("the new run's page", func() bool {
		return d.Seen(func(m tea.Msg) bool {
			p, ok := m.(common.PushMsg)
			if ok {
				next, _ = p.C.(*Jobs)
			}
			return next != nil
		})
	})
	if next.run.ID == run.ID || next.run.HeadSHA != run.HeadSHA {
		t.Errorf("the page opened is of run %d at %s; the re-run of %d at %s", next.run.ID, next.run.HeadSHA, run.ID, run.HeadSHA)
	}
	status(t, d, "runs again as run")
}

// TestRunActionsNotOffered: a service without the cancel and re-run
// endpoints (a proxy in front of the reference server answers 404 and
// 405 there) is said to not offer them, not "not found".
func TestRunActionsNotOffered(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	target, _ := url.Parse(srv.URL())
	proxy := httputil.NewSingleHostReverseProxy(target)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/cancel"):
			http.NotFound(w, r)
		case strings.HasSuffix(r.URL.Path, "/rerun"):
			w.Header().Set("Allow", "GET")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		default:
			proxy.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(front.Close)
	env := tuitest.Env(t, srv, "alice")
	env["FORGE_BASE_URL"] = strings.Replace(srv.BaseURL(), srv.URL(), front.URL, 1)
	ctx := common.NewContext(t.Context(), tuitest.Factory(env), true)
	ctx.Now = func() time.Time { return tuitest.Now }

	run := runOn(t, ctx, "slog")
	d := tuitest.Drive(t, NewJobs(ctx, tuitest.Webapp, run), 80, 20)
	d.UntilView("in progress")
	d.Key("x", "y")
	status(t, d, "this service does not offer cancelling runs (it answered 404)")
	d.Key("R")
	status(t, d, "this service does not offer re-running runs (it answered 405)")
}
