package client_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
)

// TestJobLogsFrom reads a completed job's log whole, then from offsets:
// the reference server honours the range, and past the end there is
// nothing new.
func TestJobLogsFrom(t *testing.T) {
	t.Parallel()
	srv := refservertest.Start(t)
	check(srv.CreateUser("alice", "alice-password-1", "")).in(t)
	check(srv.CreateRepo("alice", "app", refserver.RepoOptions{AutoInit: true})).in(t)
	run := check(srv.CreateRun("alice/app", refserver.RunSeed{Status: "completed"})).in(t)
	c := loggedIn(t, srv, "alice", "alice-password-1")
	ctx := context.Background()
	repo := client.RepoName{Owner: "alice", Name: "app"}
	jobs := check(client.Collect(c.Actions.ListJobs(ctx, repo, run.ID, client.ListOptions{}), 0)).in(t)
	read := func(from int64) (string, int64) {
		t.Helper()
		body, start, err := c.Actions.JobLogsFrom(ctx, repo, jobs[0].ID, from)
		if err != nil {
			t.Fatal(err)
		}
		defer body.Close()
		data := check(io.ReadAll(body)).in(t)
		return string(data), start
	}
	full, start := read(0)
	if start != 0 || !strings.Contains(full, "==> Set up job") {
		t.Fatalf("from 0: start %d, %q", start, full)
	}
	tail, start := read(10)
	if start != 10 || tail != full[10:] {
		t.Fatalf("from 10: start %d, %q", start, tail)
	}
	rest, start := read(int64(len(full)))
	if start != int64(len(full)) || rest != "" {
		t.Fatalf("from the end: start %d, %q", start, rest)
	}
}

// TestJobLogsFromNoRange: a server that ignores Range sends the whole log
// with 200, and the caller learns it starts at 0.
func TestJobLogsFromNoRange(t *testing.T) {
	t.Parallel()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Range") != "bytes=5-" {
			t.Errorf("Range %q", r.Header.Get("Range"))
		}
		fmt.Fprint(w, "line one\nline two\n")
	}))
	defer hs.Close()
	c := check(client.New(hs.URL+"/api/v2", "tok")).in(t)
	body, start, err := c.Actions.JobLogsFrom(context.Background(), client.RepoName{Owner: "a", Name: "b"}, 7, 5)
	if err != nil {
		t.Fatal(err)
	}
	defer body.Close()
	data := check(io.ReadAll(body)).in(t)
	if start != 0 || string(data) != "line one\nline two\n" {
		t.Fatalf("start %d, %q", start, data)
	}
}
