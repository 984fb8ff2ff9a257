package refserver_test

import (
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
)

// TestFailedWritesChangeNothing: while the data directory's disk refuses
// writes (a full disk, simulated in the store's file layer: each failed
// write leaves half a line behind), every REST write — issues, comments,
// issue state, repositories, SSH keys — answers 507 without a filesystem
// path, and neither what the server shows nor what a restart loads has
// changed; once the disk takes writes again, they work.
func TestFailedWritesChangeNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := refservertest.Start(t, func(o *refserver.Options) { o.DataDir = dir; o.PublicURL = "http://forge.test" })
	alice := mustUser(t, s, "alice", "alice-password-123", "")
	want(t, call(t, s, "POST", "/repos", alice, map[string]any{"name": "app", "auto_init": true}), 201)
	want(t, call(t, s, "POST", "/repos/alice/app/issues", alice, map[string]any{"title": "First"}), 201)
	want(t, call(t, s, "POST", "/repos/alice/app/issues/1/comments", alice, map[string]any{"body": "one"}), 201)
	key, _ := newKey(t, "laptop")
	kept := want(t, call(t, s, "POST", "/me/keys", alice, map[string]any{"title": "laptop", "key": key}), 201)
	keyID := itoa(int(kept.obj["id"].(float64)))

	views := []string{"/repos", "/repos/alice/app", "/repos/alice/app/issues?state=all", "/repos/alice/app/issues/1",
		"/repos/alice/app/issues/1/comments", "/me/keys"}
	snapshot := func(s *refserver.Server) map[string]string {
		out := map[string]string{}
		for _, v := range views {
			out[v] = string(want(t, call(t, s, "GET", v, alice, nil), 200).raw)
		}
		return out
	}
	before := snapshot(s)

	journal := filepath.Join(dir, "journal.jsonl")
	s.Store().SetWriteFault(func(op string) error {
		return &fs.PathError{Op: op, Path: journal, Err: syscall.ENOSPC}
	})
	other, _ := newKey(t, "desktop")
	writes := []struct {
		method, path string
		body         any
	}{
		{"POST", "/repos/alice/app/issues", map[string]any{"title": "Second"}},
		{"POST", "/repos/alice/app/issues/1/comments", map[string]any{"body": "two"}},
		{"POST", "/repos/alice/app/issues/1/state", map[string]any{"state": "closed"}},
		{"PATCH", "/repos/alice/app/issues/1", map[string]any{"title": "Renamed"}},
		{"PATCH", "/repos/alice/app", map[string]any{"description": "changed"}},
		{"POST", "/repos", map[string]any{"name": "new"}},
		{"DELETE", "/repos/alice/app", nil},
		{"POST", "/me/keys", map[string]any{"title": "desktop", "key": other}},
		{"DELETE", "/me/keys/" + keyID, nil},
	}
	for _, w := range writes {
		r := call(t, s, w.method, w.path, alice, w.body)
		if r.status != 507 || strings.Contains(string(r.raw), dir) || strings.Contains(string(r.raw), "journal") ||
			!strings.Contains(r.str("error"), "no space left on device") {
			t.Errorf("%s %s on a full disk: %d %s", w.method, w.path, r.status, r.raw)
		}
	}
	after := snapshot(s)
	for _, v := range views {
		if after[v] != before[v] {
			t.Errorf("GET %s changed by writes that failed:\nbefore %s\nafter  %s", v, before[v], after[v])
		}
	}
	// The disk takes writes again: they work, and a restart keeps them
	// and nothing of the failed ones.
	s.Store().SetWriteFault(nil)
	want(t, call(t, s, "POST", "/repos/alice/app/issues", alice, map[string]any{"title": "Second, for real"}), 201)
	shown := snapshot(s)
	s.Close()
	s2 := refservertest.Start(t, func(o *refserver.Options) { o.DataDir = dir; o.PublicURL = "http://forge.test" })
	restarted := snapshot(s2)
	issues := want(t, call(t, s2, "GET", "/repos/alice/app/issues?state=all", alice, nil), 200)
	if len(issues.arr) != 2 || issues.arr[0].(map[string]any)["title"] != "Second, for real" {
		t.Errorf("issues after restart: %s", issues.raw)
	}
	for _, v := range views {
		if restarted[v] != shown[v] {
			t.Errorf("GET %s after restart:\nbefore %s\nafter  %s", v, shown[v], restarted[v])
		}
	}
}
