package ci

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/tuitest"
)

// TestRunsPollOnlyInSight: the runs list, live while runs are
// unfinished, asks nothing when its poll comes while its tab is hidden,
// and asks again when it comes in sight.
func TestRunsPollOnlyInSight(t *testing.T) {
	t.Parallel()
	ctx := tuitest.Context(t, tuitest.Server(t), "alice")
	var hidden atomic.Bool
	ctx.SetInSight(func(common.Component) bool { return !hidden.Load() })
	r := NewRuns(ctx, tuitest.Webapp)
	d := tuitest.Drive(t, r, 80, 20)
	d.UntilView("CI on slog", "3 unfinished")
	d.Until("the list's load to end", func() bool { return !r.Loading() })
	hidden.Store(true)
	d.Send(pollMsg{owner: r.ID(), gen: r.poll})
	if r.Loading() {
		t.Fatal("the hidden runs list polled")
	}
	hidden.Store(false)
	d.Send(pollMsg{owner: r.ID(), gen: r.poll})
	if !r.Loading() {
		t.Fatal("the runs list in sight did not poll")
	}
}

// TestRunPageGone: a run page read again after its run is gone (a
// server restarted on another world) shows the 404, not the run's
// last status.
func TestRunPageGone(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	var gone atomic.Bool
	u, _ := url.Parse(srv.URL())
	proxy := httputil.NewSingleHostReverseProxy(u)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if gone.Load() && strings.Contains(r.URL.Path, "/actions/runs/") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"error": "workflow run not found"}`))
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	env := tuitest.Env(t, srv, "alice")
	env["FORGE_BASE_URL"] = ts.URL + "/api/v2"
	ctx := tuitest.Context(t, srv, "alice")
	ctx.Factory = tuitest.Factory(env)
	runs, err := client.Collect(tuitest.Client(t, srv, "alice").Actions.ListRuns(t.Context(), tuitest.Webapp, client.RunListOptions{}), 0)
	if err != nil {
		t.Fatal(err)
	}
	var done *client.WorkflowRun
	for _, r := range runs {
		if r.Conclusion == "success" {
			done = r
		}
	}
	j := NewJobs(ctx, tuitest.Webapp, done)
	d := tuitest.Drive(t, j, 80, 20)
	d.UntilView("success · ")
	gone.Store(true)
	d.Run(j.Refresh())
	v := d.UntilView("✗", "workflow run not found")
	if strings.Contains(v, "success") {
		t.Errorf("the page of a run that is gone still says success:\n%s", v)
	}
}
