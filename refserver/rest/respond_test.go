package rest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http/httptest"
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
