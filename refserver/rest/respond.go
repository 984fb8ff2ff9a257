package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/forgehq/forge/refserver/store"
)

type errorBody struct {
	Error string `json:"error"`
}

var okBody = map[string]bool{"ok": true}

// writeJSON answers with v as indented JSON, readable with curl.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		fmt.Fprintf(&buf, "{\"error\": %q}\n", err.Error())
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// writeRawJSON answers 200 with b, already encoded.
func writeRawJSON(w http.ResponseWriter, b []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	w.Write(b)
}

// httpError is a failure only the HTTP edge knows of (401, 408, 413,
// 429), with its status.
type httpError struct {
	status int
	msg    string
}

func (e *httpError) Error() string { return e.msg }

// statusOf is the one place an error's HTTP status is decided: an
// httpError's own, a store.Error's by its kind, else 500.
func statusOf(err error) int {
	var he *httpError
	if errors.As(err, &he) {
		return he.status
	}
	switch store.KindOf(err) {
	case store.InvalidInput:
		return http.StatusBadRequest
	case store.Missing:
		return http.StatusNotFound
	case store.Taken:
		return http.StatusConflict
	case store.Refused:
		return http.StatusForbidden
	case store.Revoked:
		return http.StatusUnauthorized
	case store.DiskFull:
		return http.StatusInsufficientStorage
	}
	return http.StatusInternalServerError
}

// writeError answers with err's status and message in the Error shape.
func writeError(w http.ResponseWriter, err error) {
	status, msg := errorAnswer(w, err)
	writeJSON(w, status, errorBody{msg})
}

// writeGitError is git's smart HTTP's writeError: the same status and
// message, as plain text (git shows a text/plain body's lines as
// "remote: ..."), and a 401 names the scheme git answers with its
// credentials.
func writeGitError(w http.ResponseWriter, err error) {
	status, msg := errorAnswer(w, err)
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Basic realm="forge"`)
	}
	http.Error(w, msg, status)
}

// errorAnswer is what both writers answer for err: its status, its
// message (a 500's without the file), and the headers that go with it.
func errorAnswer(w http.ResponseWriter, err error) (int, string) {
	if statusOf(err) == http.StatusInternalServerError && store.IsDiskFull(err) {
		err = store.StorageError(err) // a full disk is a 507
	}
	status := statusOf(err)
	msg := err.Error()
	if status == http.StatusInternalServerError {
		msg = internalMessage(err)
	}
	setRetryAfter(w, err)
	return status, msg
}

// internalMessage is what an answer says of an internal error, the JSON
// API's and git's alike: its cause, not the file — no answer carries a
// filesystem path.
func internalMessage(err error) string {
	msg := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) {
		msg = pe.Op + ": " + pe.Err.Error()
	}
	return "internal error: " + msg
}

// Shorthands for the errors handlers return.
var (
	errNotFound  = store.NotFound
	errInvalid   = store.Invalid
	errForbidden = store.Forbidden
	errConflict  = store.Conflict
)

func errUnauthorized(format string, a ...any) error {
	return &httpError{status: http.StatusUnauthorized, msg: fmt.Sprintf(format, a...)}
}

// errTooLarge is a 413: a request over one of the server's bounds.
func errTooLarge(format string, a ...any) error {
	return &httpError{status: http.StatusRequestEntityTooLarge, msg: fmt.Sprintf(format, a...)}
}

// errMethod is a 405: a method the path does not have.
func errMethod(format string, a ...any) error {
	return &httpError{status: http.StatusMethodNotAllowed, msg: fmt.Sprintf(format, a...)}
}

// errBusy is a 503 whose answer carries Retry-After: the server is at a
// bound that frees itself (e.g. the pushes being received at once).
func errBusy(wait time.Duration, format string, a ...any) error {
	return &retryLater{wait: wait, err: &httpError{status: http.StatusServiceUnavailable, msg: fmt.Sprintf(format, a...)}}
}

// errBody is the error of a failed read of a request's body: 408 when
// the server's body-read deadline passed, else 400; what names the body.
func errBody(what string, err error) error {
	return &httpError{status: bodyErrorStatus(err), msg: "reading " + what + ": " + bodyErrorText(err)}
}

// maxBody bounds request bodies; requests here are small.
const maxBody = 1 << 20

// decode reads a JSON object from the request body into v. Unknown fields
// are ignored (tolerant reader); malformed JSON, a body that is not an
// object, trailing data or a field of the wrong type is a 400 naming the
// problem. An empty body decodes as {}.
func decode(w http.ResponseWriter, r *http.Request, v any) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return errTooLarge("request body over %d bytes", maxBody)
		}
		return errBody("request body", err)
	}
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		body = []byte("{}")
	}
	if body[0] != '{' {
		return errInvalid("request body must be a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(v); err != nil {
		return jsonError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errInvalid("malformed JSON: unexpected data after the object")
	}
	return nil
}

// bodyErrorStatus is the status of a failed body read: 408 when the
// server's body-read deadline passed, else 400.
func bodyErrorStatus(err error) int {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return http.StatusRequestTimeout
	}
	return http.StatusBadRequest
}

// bodyErrorText says why a body read failed, without the connection's
// addresses.
func bodyErrorText(err error) string {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return "the body did not arrive before the server's deadline (see forge serve --help)"
	}
	var op *net.OpError
	if errors.As(err, &op) {
		return op.Err.Error()
	}
	return err.Error()
}

func jsonError(err error) error {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr):
		if typeErr.Field == "" {
			return errInvalid("request body must be a JSON object")
		}
		return errInvalid("field %s must be %s, not %s", typeErr.Field, jsonKind(typeErr.Type.Kind().String()), typeErr.Value)
	case errors.As(err, &syntaxErr):
		return errInvalid("malformed JSON at byte %d: %v", syntaxErr.Offset, err)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errInvalid("malformed JSON: unexpected end of body")
	}
	return errInvalid("malformed JSON: %v", err)
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "int", "int64", "int32", "float64":
		return "a number"
	case "slice":
		return "an array"
	}
	return "an object"
}

// required returns a 400 for the first required field that is missing or
// blank.
func required(fields ...any) error {
	for i := 0; i+1 < len(fields); i += 2 {
		name, v := fields[i].(string), fields[i+1].(*string)
		if v == nil || strings.TrimSpace(*v) == "" {
			return errInvalid("field %s is required", name)
		}
	}
	return nil
}

// pathInt parses an integer path segment; a non-number is a 404, as no
// such resource can exist.
func pathInt(r *http.Request, name string) (int64, error) {
	s := r.PathValue(name)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 {
		return 0, errNotFound("%s %q not found: must be a positive integer", name, s)
	}
	return n, nil
}

// Pagination: page (from 1) and per_page (default 30, at most 100);
// Link carries first, prev, next and last as GitHub does.
const (
	defaultPerPage = 30
	maxPerPage     = 100
)

func paginate[T any](w http.ResponseWriter, r *http.Request, items []T) ([]T, error) {
	lo, hi, err := pageBounds(w, r, len(items))
	if err != nil {
		return nil, err
	}
	if lo >= hi {
		return []T{}, nil
	}
	return items[lo:hi], nil
}

// pageBounds reads page and per_page, sets the Link header for a list of
// total items, and returns the page's bounds in it.
func pageBounds(w http.ResponseWriter, r *http.Request, total int) (lo, hi int, err error) {
	q := r.URL.Query()
	page, err := queryInt(q, "page", 1)
	if err != nil {
		return 0, 0, err
	}
	per, err := queryInt(q, "per_page", defaultPerPage)
	if err != nil {
		return 0, 0, err
	}
	per = min(per, maxPerPage)
	last := max(1, (total+per-1)/per)
	var links []string
	link := func(p int, rel string) {
		q.Set("page", strconv.Itoa(p))
		q.Set("per_page", strconv.Itoa(per))
		u := url.URL{Path: r.URL.Path, RawQuery: q.Encode()}
		links = append(links, fmt.Sprintf("<%s%s>; rel=%q", origin(r), u.String(), rel))
	}
	if page < last {
		link(page+1, "next")
		link(last, "last")
	}
	if page > 1 {
		link(1, "first")
		link(min(page-1, last), "prev")
	}
	if len(links) > 0 {
		w.Header().Set("Link", strings.Join(links, ", "))
	}
	lo = min((page-1)*per, total)
	return lo, min(total, lo+per), nil
}

func queryInt(q url.Values, name string, def int) (int, error) {
	s := q.Get(name)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 1<<30 {
		return 0, errInvalid("query parameter %s must be a positive integer, not %q", name, s)
	}
	return n, nil
}

// originKey keys the server's public origin in a request's context.
type originKey struct{}

// withOrigin gives r the server's public origin (Config.PublicURL).
func (a *API) withOrigin(r *http.Request) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), originKey{}, a.cfg.PublicURL()))
}

// origin is the server's public origin, for the URLs in responses: the
// address it was told it is reached at, never the request's Host header,
// which any client may set.
func origin(r *http.Request) string {
	o, _ := r.Context().Value(originKey{}).(string)
	return o
}
