package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// errCode is an error code of the registry protocol. Each code has one
// HTTP status, in codeStatus: a handler names the code, never the status.
type errCode string

// The codes the registry answers with: the OCI distribution
// specification's, and the ones CNCF distribution adds (UNKNOWN,
// UNAVAILABLE, TAG_INVALID, PAGINATION_NUMBER_INVALID, RANGE_INVALID).
// NOT_FOUND is a path outside the protocol, which distribution answers
// with a bare 404.
const (
	codeBlobUnknown             errCode = "BLOB_UNKNOWN"
	codeBlobUploadInvalid       errCode = "BLOB_UPLOAD_INVALID"
	codeBlobUploadUnknown       errCode = "BLOB_UPLOAD_UNKNOWN"
	codeDigestInvalid           errCode = "DIGEST_INVALID"
	codeManifestBlobUnknown     errCode = "MANIFEST_BLOB_UNKNOWN"
	codeManifestInvalid         errCode = "MANIFEST_INVALID"
	codeManifestUnknown         errCode = "MANIFEST_UNKNOWN"
	codeNameInvalid             errCode = "NAME_INVALID"
	codeNameUnknown             errCode = "NAME_UNKNOWN"
	codeSizeInvalid             errCode = "SIZE_INVALID"
	codeTagInvalid              errCode = "TAG_INVALID"
	codeUnauthorized            errCode = "UNAUTHORIZED"
	codeDenied                  errCode = "DENIED"
	codeUnsupported             errCode = "UNSUPPORTED"
	codeTooManyRequests         errCode = "TOOMANYREQUESTS"
	codePaginationNumberInvalid errCode = "PAGINATION_NUMBER_INVALID"
	codeRangeInvalid            errCode = "RANGE_INVALID"
	codeNotFound                errCode = "NOT_FOUND"
	codeUnknown                 errCode = "UNKNOWN"
	codeUnavailable             errCode = "UNAVAILABLE"
)

// Codes of forge's own endpoints, never sent as codes of the protocol:
// OAuth2's, which the token service answers in OAuth2's shape, and the
// /api/ endpoints' body that says nothing usable (their shape, the
// service's {"error"}, carries no code).
const (
	codeInvalidRequest       errCode = "invalid_request"
	codeUnsupportedGrantType errCode = "unsupported_grant_type"
	codeUnprocessable        errCode = "UNPROCESSABLE"
)

// codeStatus is the status of every code, as distribution's errcode
// registry gives it (SIZE_INVALID is 400 there too: a manifest over the
// limit is an invalid request, not a body the server could not read).
var codeStatus = map[errCode]int{
	codeBlobUnknown:             http.StatusNotFound,
	codeBlobUploadInvalid:       http.StatusBadRequest,
	codeBlobUploadUnknown:       http.StatusNotFound,
	codeDigestInvalid:           http.StatusBadRequest,
	codeManifestBlobUnknown:     http.StatusBadRequest,
	codeManifestInvalid:         http.StatusBadRequest,
	codeManifestUnknown:         http.StatusNotFound,
	codeNameInvalid:             http.StatusBadRequest,
	codeNameUnknown:             http.StatusNotFound,
	codeSizeInvalid:             http.StatusBadRequest,
	codeTagInvalid:              http.StatusBadRequest,
	codeUnauthorized:            http.StatusUnauthorized,
	codeDenied:                  http.StatusForbidden,
	codeUnsupported:             http.StatusMethodNotAllowed,
	codeTooManyRequests:         http.StatusTooManyRequests,
	codePaginationNumberInvalid: http.StatusBadRequest,
	codeRangeInvalid:            http.StatusRequestedRangeNotSatisfiable,
	codeNotFound:                http.StatusNotFound,
	codeUnknown:                 http.StatusInternalServerError,
	codeUnavailable:             http.StatusServiceUnavailable,
	codeInvalidRequest:          http.StatusBadRequest,
	codeUnsupportedGrantType:    http.StatusBadRequest,
	codeUnprocessable:           http.StatusUnprocessableEntity,
}

// regError is what a handler returns when it does not answer itself: a
// code, the message for the client, and the headers that go with the
// answer (Allow, WWW-Authenticate, an upload's Location and Range).
// writeError alone turns it into a response, with codeStatus's status.
type regError struct {
	code   errCode
	msg    string
	header http.Header
	// cause is the whole failure, for the log only (it may name the
	// server's files).
	cause error
}

func (e *regError) Error() string { return string(e.code) + ": " + e.msg }
func (e *regError) Unwrap() error { return e.cause }

// errorf is an error with code and a message.
func errorf(code errCode, format string, a ...any) *regError {
	return &regError{code: code, msg: fmt.Sprintf(format, a...), header: http.Header{}}
}

// with adds a header to the answer.
func (e *regError) with(key, value string) *regError {
	e.header.Set(key, value)
	return e
}

// unsupported answers a method the path does not take, naming the ones it
// does in Allow.
func unsupported(allow, msg string) *regError {
	return errorf(codeUnsupported, "%s", msg).with("Allow", allow)
}

// storageFailed answers a failed read or write of the registry's files:
// 500, the cause without the path; the whole error goes to the log.
func storageFailed(what string, err error) *regError {
	e := errorf(codeUnknown, "%s: %s", what, storageFailure(err))
	e.cause = fmt.Errorf("%s: %w", what, err)
	return e
}

// loginFailure answers credentials the login did not accept: 429 for a
// locked-out login, 503 when the login could not be asked, else the 401
// that unauthorized builds from the reason.
func loginFailure(err error, unauthorized func(msg string) *regError) *regError {
	switch {
	case errors.Is(err, errLockedOut):
		return errorf(codeTooManyRequests, "%v", err)
	case errors.Is(err, errLoginUnavailable):
		return errorf(codeUnavailable, "%v", err)
	}
	return unauthorized(err.Error())
}

// basicChallenge is a 401 asking for HTTP basic credentials.
func basicChallenge(realm string) func(msg string) *regError {
	return func(msg string) *regError {
		return errorf(codeUnauthorized, "%s", msg).with("WWW-Authenticate", fmt.Sprintf("Basic realm=%q", realm))
	}
}

// errorBody writes an error's body in the shape of its endpoint.
type errorBody func(w http.ResponseWriter, status int, e *regError)

// protocolBody is the registry protocol's {"errors": [{"code", "message"}]}.
func protocolBody(w http.ResponseWriter, status int, e *regError) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{
		"errors": []map[string]string{{"code": string(e.code), "message": e.msg}},
	})
}

// serviceBody is the service's {"error": "..."}, for the /api/ endpoints.
func serviceBody(w http.ResponseWriter, status int, e *regError) {
	writeJSON(w, status, map[string]string{"error": e.msg})
}

// tokenBody is OAuth2's {"error", "error_description"} for OAuth2's codes
// (a token request that cannot be read), the protocol's shape otherwise.
func tokenBody(w http.ResponseWriter, status int, e *regError) {
	if e.code == codeInvalidRequest || e.code == codeUnsupportedGrantType {
		writeJSON(w, status, map[string]string{"error": string(e.code), "error_description": e.msg})
		return
	}
	protocolBody(w, status, e)
}

// handler serves h, writing the error it returns in body's shape.
func (r *Registry) handler(h func(http.ResponseWriter, *http.Request) error, body errorBody) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		if err := h(w, req); err != nil {
			r.writeError(w, err, body)
		}
	}
}

// writeError is the one place an error becomes an answer: its headers,
// its code's status, its body in the endpoint's shape. An error that is
// not a regError is a failure of the server's own: 500, logged.
func (r *Registry) writeError(w http.ResponseWriter, err error, body errorBody) {
	var e *regError
	if !errors.As(err, &e) {
		e = errorf(codeUnknown, "internal error")
		e.cause = err
	}
	if e.cause != nil {
		r.logf("%v", e.cause)
	}
	for k, v := range e.header {
		w.Header()[k] = v
	}
	status, ok := codeStatus[e.code]
	if !ok {
		status = http.StatusInternalServerError
	}
	body(w, status, e)
}
