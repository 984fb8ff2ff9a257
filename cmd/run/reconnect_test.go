package run

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
)

// watcherBehind returns a watcher of a held in_progress run of a reference
// server, talking to it through a CutProxy.
func watcherBehind(t *testing.T) (*watcher, *CutProxy) {
	t.Helper()
	srv := refservertest.Start(t)
	token := refservertest.User(t, srv, "alice", "")
	if _, err := srv.CreateRepo("alice", "demo", refserver.RepoOptions{AutoInit: true}); err != nil {
		t.Fatal(err)
	}
	run, err := srv.CreateRun("alice/demo", refserver.RunSeed{Status: "in_progress"})
	if err != nil {
		t.Fatal(err)
	}
	p := NewCutProxy(t, strings.TrimPrefix(srv.URL(), "http://"))
	c, err := client.New("http://"+p.Addr()+"/api/v2", token)
	if err != nil {
		t.Fatal(err)
	}
	repo, _ := client.ParseRepoName("alice/demo")
	return &watcher{ctx: context.Background(), c: c, repo: repo, id: run.ID, interval: 20 * time.Millisecond, reconnectFor: time.Minute}, p
}

// TestWatchReconnects: while the connection is down the watch keeps
// trying, saying so before each wait, and carries on once it is back.
func TestWatchReconnects(t *testing.T) {
	t.Parallel()
	w, p := watcherBehind(t)
	if _, _, err := w.fetch(func(string) { t.Error("status while connected") }); err != nil {
		t.Fatal(err)
	}
	p.SetDown(true)
	var said []string
	run, _, err := w.fetch(func(msg string) {
		said = append(said, msg)
		if len(said) == 2 {
			p.SetDown(false) // back before the third try
		}
	})
	if err != nil || run == nil || run.ID != w.id {
		t.Fatalf("fetch after the connection came back: %v, %v", run, err)
	}
	if len(said) != 3 || said[2] != "" ||
		!strings.HasPrefix(said[0], "connection lost; reconnecting in 20ms (attempt 1, for up to 1m0s)") ||
		!strings.HasPrefix(said[1], "connection lost; reconnecting in 40ms (attempt 2, for up to 1m0s)") {
		t.Errorf("said %q", said)
	}
}

// TestWatchGivesUp: a connection that stays down ends the watch once the
// reconnection time is over, with the reason.
func TestWatchGivesUp(t *testing.T) {
	t.Parallel()
	w, p := watcherBehind(t)
	w.reconnectFor = 100 * time.Millisecond
	p.SetDown(true)
	tries := 0
	_, _, err := w.fetch(func(string) { tries++ })
	var netErr *client.NetworkError
	if !errors.As(err, &netErr) || !strings.HasPrefix(err.Error(), "gave up reconnecting after 100ms: cannot reach the service") || tries == 0 {
		t.Fatalf("after %d tries: %v", tries, err)
	}
}

// TestWatchDoesNotRetryRefusals: an answer of the service (here a 404) is
// not a lost connection: no retrying.
func TestWatchDoesNotRetryRefusals(t *testing.T) {
	t.Parallel()
	w, _ := watcherBehind(t)
	w.id = 999
	_, _, err := w.fetch(func(string) { t.Error("retried a 404") })
	if !client.IsNotFound(err) {
		t.Fatal(err)
	}
}
