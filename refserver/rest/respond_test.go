package rest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/forgehq/forge/refserver/store"
)

// TestWriteError: the HTTP status of every error is decided here, from
// the store's kinds and the edge's own errors; the answer is the Error
// shape, a 500 names the cause and never the file, a full disk is a 507,
// and a 429 carries Retry-After.
func TestWriteError(t *testing.T) {
	for _, c := range []struct {
		err    error
		status int
		msg    string
	}{
		{store.Invalid("bad %s", "x"), 400, "bad x"},
		{fmt.Errorf("wrapped: %w", store.NotFound("no such repository")), 404, "wrapped: no such repository"},
		{store.Conflict("taken"), 409, "taken"},
		{store.Forbidden("no"), 403, "no"},
		{store.ErrReplay, 400, store.ErrReplay.Msg},
		{errUnauthorized("bad credentials"), 401, "bad credentials"},
		{errTooMany(90*time.Second, "too many failed logins"), 429, "too many failed logins: try again in 2 minutes"},
		{store.StorageError(&fs.PathError{Op: "write", Path: "/data/journal.jsonl", Err: syscall.ENOSPC}), 507,
			"the server could not save the change (no space left on device); nothing was changed, retry later"},
		{&fs.PathError{Op: "write", Path: "/data/journal.jsonl", Err: syscall.ENOSPC}, 507,
			"the server could not save the change (no space left on device); nothing was changed, retry later"},
		{&fs.PathError{Op: "open", Path: "/data/secret", Err: syscall.EACCES}, 500, "internal error: open: permission denied"},
		{errors.New("boom"), 500, "internal error: boom"},
	} {
		w := httptest.NewRecorder()
		writeError(w, c.err)
		var body map[string]string
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || len(body) != 1 {
			t.Fatalf("%v: body %q", c.err, w.Body)
		}
		if w.Code != c.status || body["error"] != c.msg {
			t.Errorf("%v: %d %q, want %d %q", c.err, w.Code, body["error"], c.status, c.msg)
		}
		if ra := w.Header().Get("Retry-After"); (c.status == 429) != (ra == "90") {
			t.Errorf("%v: Retry-After %q", c.err, ra)
		}
	}
}

// TestWriteGitError: git's smart HTTP answers the statuses and messages
// writeError does, as plain text, with WWW-Authenticate on a 401 and
// Retry-After on a 429 or 503; also the errors only the git edge makes.
func TestWriteGitError(t *testing.T) {
	for _, c := range []struct {
		err        error
		status     int
		msg, retry string
	}{
		{store.NotFound("repository alice/x not found"), 404, "repository alice/x not found", ""},
		{store.Forbidden("pushing needs write permission on alice/x"), 403, "pushing needs write permission on alice/x", ""},
		{errUnauthorized("two-factor verification required"), 401, "two-factor verification required", ""},
		{errMethod("method not allowed"), 405, "method not allowed", ""},
		{errBody("the push", fmt.Errorf("read tcp: %w", os.ErrDeadlineExceeded)), 408,
			"reading the push: the body did not arrive before the server's deadline (see forge serve --help)", ""},
		{errTooLarge("push over 2 GiB: push in parts"), 413, "push over 2 GiB: push in parts", ""},
		{errBusy(10*time.Second, "busy"), 503, "busy", "10"},
		{errTooMany(90*time.Second, "too many"), 429, "too many: try again in 2 minutes", "90"},
		{&fs.PathError{Op: "write", Path: "/data/git/1.git/objects/pack/tmp_obj_1", Err: syscall.ENOSPC}, 507,
			"the server could not save the change (no space left on device); nothing was changed, retry later", ""},
		{fmt.Errorf("advertising the refs: %w", &fs.PathError{Op: "open", Path: "/data/git/1.git/packed-refs", Err: syscall.EACCES}), 500,
			"internal error: open: permission denied", ""},
		// A fetch that failed making its answer: the request's fault,
		// unless the repository's files failed to be read.
		{fetchError(errors.New("object not found")), 400, "object not found", ""},
		{fetchError(&fs.PathError{Op: "read", Path: "/data/git/1.git/objects/pack/pack-1.pack", Err: syscall.EIO}), 500,
			"internal error: read: input/output error", ""},
	} {
		w := httptest.NewRecorder()
		writeGitError(w, c.err)
		if w.Code != c.status || w.Body.String() != c.msg+"\n" {
			t.Errorf("%v: %d %q, want %d %q", c.err, w.Code, w.Body, c.status, c.msg)
		}
		if ct := w.Header().Get("Content-Type"); ct != "text/plain; charset=utf-8" {
			t.Errorf("%v: %q", c.err, ct)
		}
		if h := w.Header().Get("WWW-Authenticate"); (c.status == 401) != (h == `Basic realm="forge"`) {
			t.Errorf("%v: WWW-Authenticate %q", c.err, h)
		}
		if h := w.Header().Get("Retry-After"); h != c.retry {
			t.Errorf("%v: Retry-After %q, want %q", c.err, h, c.retry)
		}
	}
}
