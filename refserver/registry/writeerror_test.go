package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
)

// TestWriteError: every error a handler returns becomes its answer here,
// and only here: the status is its code's (codeStatus), the headers it
// carries go out, the body has the endpoint's shape, and a failure of the
// server's own is a 500 whose cause goes to the log, never a path to the
// client.
func TestWriteError(t *testing.T) {
	full := &fs.PathError{Op: "write", Path: "/srv/data/registry/blobs/sha256/ab", Err: syscall.ENOSPC}
	u := &upload{id: "u1", repo: "alice/app", size: 3}
	rangeErr := errorf(codeRangeInvalid, "chunk 5-9 does not continue the upload")
	u.progress(rangeErr.header)
	for _, c := range []struct {
		name   string
		err    error
		body   errorBody
		status int
		want   string // the body
		header map[string]string
		log    string
	}{
		{"a code", errorf(codeDigestInvalid, "%q is not a digest", "x"), protocolBody, 400,
			`{"errors":[{"code":"DIGEST_INVALID","message":"\"x\" is not a digest"}]}`, map[string]string{"Content-Type": "application/json"}, ""},
		{"wrapped", fmt.Errorf("serving: %w", errorf(codeManifestUnknown, "manifest 1 not found in alice/app")), protocolBody, 404,
			`{"errors":[{"code":"MANIFEST_UNKNOWN","message":"manifest 1 not found in alice/app"}]}`, nil, ""},
		{"a method", unsupported("GET, HEAD", "referrers are listed with GET"), protocolBody, 405,
			`{"errors":[{"code":"UNSUPPORTED","message":"referrers are listed with GET"}]}`, map[string]string{"Allow": "GET, HEAD"}, ""},
		{"a chunk out of place", rangeErr, protocolBody, 416,
			`{"errors":[{"code":"RANGE_INVALID","message":"chunk 5-9 does not continue the upload"}]}`,
			map[string]string{"Location": "/v2/alice/app/blobs/uploads/u1", "Range": "0-2", "Docker-Upload-UUID": "u1"}, ""},
		{"a full disk", storageFailed("storing the blob", full), protocolBody, 500,
			`{"errors":[{"code":"UNKNOWN","message":"storing the blob: no space left on device"}]}`, nil,
			"storing the blob: write /srv/data/registry/blobs/sha256/ab: no space left on device"},
		{"the server's own", errors.New("boom at /srv/data"), protocolBody, 500,
			`{"errors":[{"code":"UNKNOWN","message":"internal error"}]}`, nil, "boom at /srv/data"},
		{"the service's shape", errorf(codeUnprocessable, "you own this repository already"), serviceBody, 422,
			"{\n  \"error\": \"you own this repository already\"\n}", nil, ""},
		{"the service's 403", errorf(codeDenied, "the full catalog is for admins"), serviceBody, 403,
			"{\n  \"error\": \"the full catalog is for admins\"\n}", nil, ""},
		{"OAuth2's", errorf(codeInvalidRequest, "bad scope"), tokenBody, 400,
			"{\n  \"error\": \"invalid_request\",\n  \"error_description\": \"bad scope\"\n}", nil, ""},
		{"a login at the token service", basicChallenge("forge registry token service")("wrong username or password"), tokenBody, 401,
			`{"errors":[{"code":"UNAUTHORIZED","message":"wrong username or password"}]}`,
			map[string]string{"WWW-Authenticate": `Basic realm="forge registry token service"`}, ""},
	} {
		var logged bytes.Buffer
		r := &Registry{log: log.New(&logged, "", 0)}
		w := httptest.NewRecorder()
		r.writeError(w, c.err, c.body)
		if w.Code != c.status || strings.TrimSpace(w.Body.String()) != c.want {
			t.Errorf("%s: %d %s\nwant %d %s", c.name, w.Code, w.Body, c.status, c.want)
		}
		for k, v := range c.header {
			if got := w.Header().Get(k); got != v {
				t.Errorf("%s: %s = %q, want %q", c.name, k, got, v)
			}
		}
		if got := strings.TrimSpace(logged.String()); got != c.log {
			t.Errorf("%s: logged %q, want %q", c.name, got, c.log)
		}
		if strings.Contains(w.Body.String(), "/srv/") {
			t.Errorf("%s: the answer names a path of the server: %s", c.name, w.Body)
		}
	}
}

// TestLoginFailure: what the login says of credentials is one answer on
// every endpoint that asks it.
func TestLoginFailure(t *testing.T) {
	unauthorized := basicChallenge("forge registry")
	for _, c := range []struct {
		err  error
		code errCode
		msg  string
	}{
		{errBadCredentials, codeUnauthorized, "wrong username or password"},
		{fmt.Errorf("%w for dave: try again later", errLockedOut), codeTooManyRequests, "too many failed logins for dave: try again later"},
		{fmt.Errorf("%w: POST /auth/login answered 500", errLoginUnavailable), codeUnavailable, "the account service could not check the credentials: POST /auth/login answered 500"},
	} {
		e := loginFailure(c.err, unauthorized)
		if e.code != c.code || e.msg != c.msg {
			t.Errorf("%v: %s %q, want %s %q", c.err, e.code, e.msg, c.code, c.msg)
		}
		if challenged := e.header.Get("WWW-Authenticate") != ""; challenged != (c.code == codeUnauthorized) {
			t.Errorf("%v: WWW-Authenticate %q", c.err, e.header.Get("WWW-Authenticate"))
		}
	}
}

// TestPaginate: ?last= starts after an entry, ?n= bounds the page and
// names the next page's start only when more follow.
func TestPaginate(t *testing.T) {
	all := []string{"a", "b", "c", "d"}
	for _, c := range []struct {
		query, page, next string
	}{
		{"", "a b c d", ""},
		{"n=2", "a b", "b"},
		{"n=2&last=b", "c d", ""},
		{"n=1&last=a", "b", "b"},
		{"last=bb", "c d", ""},
		{"last=z", "", ""},
		{"n=0", "", ""},
		{"n=9", "a b c d", ""},
	} {
		req := httptest.NewRequest("GET", "/v2/_catalog?"+c.query, nil)
		page, next, err := paginate(req, all)
		if err != nil || strings.Join(page, " ") != c.page || next != c.next || page == nil {
			t.Errorf("?%s: %q %q %v, want %q %q", c.query, page, next, err, c.page, c.next)
		}
	}
	for _, bad := range []string{"n=x", "n=-1"} {
		_, _, err := paginate(httptest.NewRequest("GET", "/v2/_catalog?"+bad, nil), all)
		var e *regError
		if !errors.As(err, &e) || e.code != codePaginationNumberInvalid || codeStatus[e.code] != http.StatusBadRequest {
			t.Errorf("?%s: %v", bad, err)
		}
	}
}

// The errors are JSON a client can read whatever the message holds.
func TestProtocolBodyEscapes(t *testing.T) {
	w := httptest.NewRecorder()
	protocolBody(w, 400, errorf(codeTagInvalid, "%q is not a tag", "a\"b\n<c>"))
	var body struct {
		Errors []struct{ Code, Message string }
	}
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || len(body.Errors) != 1 || body.Errors[0].Message != `"a\"b\n<c>" is not a tag` {
		t.Errorf("%s: %v %+v", w.Body, err, body)
	}
}
