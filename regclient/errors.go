package regclient

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/google/go-containerregistry/pkg/v1/remote/transport"
)

// Error is a failed registry operation in words a user can act on. Its
// HTTP status decides forge's exit code (401: not authenticated).
type Error struct {
	Status int    // HTTP status, 0 when no response came
	Code   string // the registry's error code, as "MANIFEST_UNKNOWN"
	Msg    string
	Err    error
}

func (e *Error) Error() string   { return e.Msg }
func (e *Error) Unwrap() error   { return e.Err }
func (e *Error) HTTPStatus() int { return e.Status }

// wrap turns an error of go-containerregistry about what (a reference or
// repository) into an *Error; cancellation passes through untouched.
func (c *Client) wrap(err error, what string) error {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var already *Error
	if errors.As(err, &already) {
		return err
	}
	var te *transport.Error
	if errors.As(err, &te) {
		return c.fromTransport(te, what)
	}
	var ue *url.Error
	var ne net.Error
	if errors.As(err, &ue) || errors.As(err, &ne) {
		host := c.host
		if ue != nil {
			if u, perr := url.Parse(ue.URL); perr == nil {
				host = u.Host
			}
		}
		return &Error{Msg: fmt.Sprintf("cannot reach the registry at %s: %v", host, rootCause(err)), Err: err}
	}
	return &Error{Msg: fmt.Sprintf("%s: %v", what, err), Err: err}
}

func (c *Client) fromTransport(te *transport.Error, what string) error {
	e := &Error{Status: te.StatusCode, Err: te}
	var msgs []string
	for _, d := range te.Errors {
		if e.Code == "" {
			e.Code = string(d.Code)
		}
		if d.Message != "" {
			msgs = append(msgs, d.Message)
		}
	}
	detail := strings.Join(msgs, "; ")
	host := c.host
	if te.Request != nil && te.Request.URL != nil {
		host = te.Request.URL.Host
	}
	switch te.StatusCode {
	case http.StatusUnauthorized:
		switch {
		case host != c.host && !strings.HasPrefix(what, c.host+"/"):
			e.Msg = fmt.Sprintf("%s refused the credentials or wants some: log in with `docker login %s` (forge uses docker's credentials for other registries)", host, host)
		case c.HasCredentials():
			e.Msg = fmt.Sprintf("the registry refused the credentials of %s: wrong username or password; run `forge image login`", c.user)
		default:
			e.Msg = fmt.Sprintf("not logged in to the registry %s: run `forge image login` (or set FORGE_USERNAME and FORGE_PASSWORD)", c.host)
		}
	case http.StatusForbidden:
		if detail == "" {
			detail = "access denied"
		}
		e.Msg = fmt.Sprintf("%s: denied: %s", what, detail)
	case http.StatusNotFound:
		switch e.Code {
		case "NAME_UNKNOWN":
			e.Msg = fmt.Sprintf("%s: repository not found", what)
		case "BLOB_UNKNOWN":
			e.Msg = fmt.Sprintf("%s: a blob is missing in the registry: %s", what, detail)
		default:
			e.Msg = fmt.Sprintf("%s: not found (404): no such tag or digest", what)
		}
	default:
		if detail == "" {
			detail = http.StatusText(te.StatusCode)
		}
		e.Msg = fmt.Sprintf("%s: the registry answered %d: %s", what, te.StatusCode, detail)
	}
	return e
}

// rootCause strips url.Error's "Get \"...\": " prefix, which repeats the
// URL the message already names.
func rootCause(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
