package regclient

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/forgehq/forge/internal/httpwait"
	"github.com/google/go-containerregistry/pkg/name"
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
func (c *Client) wrap(err error, what string) error { return c.wrapOp(err, what, "") }

// wrapOp is wrap for an operation (push, pull, delete; "" to tell by the
// failed request), so that a refusal names what was refused.
func (c *Client) wrapOp(err error, what, op string) error {
	if err == nil || errors.Is(err, context.Canceled) {
		return err
	}
	var already *Error
	if errors.As(err, &already) {
		return err
	}
	var withheld *WithheldError
	if errors.As(err, &withheld) {
		// A matter of credentials: forge's exit code for "not authenticated".
		return &Error{Status: http.StatusUnauthorized, Msg: withheld.Error(), Err: err}
	}
	var te *transport.Error
	if errors.As(err, &te) {
		return c.fromTransport(te, what, op)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		// A local file, not the network (its errno would pass for a
		// net.Error below).
		return &Error{Msg: fmt.Sprintf("%s: %s %s: %v", what, pe.Op, pe.Path, pe.Err), Err: err}
	}
	if httpwait.IsTimeout(err) {
		return &Error{Msg: (&httpwait.Error{What: "the registry at " + c.host, Wait: c.wait}).Error(), Err: err}
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

// wrapLocal is wrap for an error while writing to dest ("-": the output
// stream): a failure of the local disk names dest and the cause.
func (c *Client) wrapLocal(err error, what, dest string) error {
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		return c.wrap(err, what)
	}
	where := dest
	if dest == "-" {
		where = pe.Path
	}
	return &Error{Msg: fmt.Sprintf("cannot write %s to %s: %v", what, where, pe.Err), Err: err}
}

func (c *Client) fromTransport(te *transport.Error, what, op string) error {
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
	if scope, ok := c.transport.refusedScope(te.Request); ok {
		// The token service issued a token (the credentials were right)
		// that does not cover this: a matter of permission, not of login.
		e.Status, e.Code = http.StatusForbidden, "DENIED"
		e.Msg = c.mayNot(what, op, scope, te.Request)
		return e
	}
	switch te.StatusCode {
	case http.StatusUnauthorized:
		// Named by the registry of what, never by the token service's
		// realm: `docker login` stores credentials for the registry.
		switch reg := registryOf(what); {
		case reg != c.host:
			e.Msg = fmt.Sprintf("%s refused the credentials or wants some: log in with `docker login %s` (forge uses docker's credentials for other registries)", reg, reg)
		case c.HasCredentials():
			e.Msg = c.refusedCredentials()
		case c.noPasswordHint != "":
			e.Msg = c.noPasswordHint
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

// mayNot says that the account may not do what the registry refused for
// want of scope: "alice may not push to HOST/bob/app".
func (c *Client) mayNot(what, op, scope string, req *http.Request) string {
	reg := registryOf(what)
	who := "you"
	if reg == c.host && c.user != "" {
		who = c.user
	}
	repo := what
	// A scope is "repository:NAME:ACTIONS"; NAME may hold no colon.
	if kind, rest, ok := strings.Cut(scope, ":"); ok && kind == "repository" {
		if n, _, ok := strings.Cut(rest, ":"); ok && n != "" {
			repo = reg + "/" + n
		}
	}
	if op == "" {
		op = opOf(req)
	}
	verb := map[string]string{"push": "push to", "delete": "delete in", "pull": "pull from"}[op]
	return fmt.Sprintf("%s may not %s %s (the registry refused the token for lack of scope)", who, verb, repo)
}

// opOf is what a request does: pull (GET, HEAD), delete, else push.
func opOf(req *http.Request) string {
	switch {
	case req == nil:
		return "pull"
	case req.Method == http.MethodDelete:
		return "delete"
	case req.Method == http.MethodGet || req.Method == http.MethodHead:
		return "pull"
	}
	return "push"
}

// registryOf is the registry host[:port] of a reference, repository or
// registry written as text ("index.docker.io" for docker's short names).
func registryOf(what string) string {
	if !strings.Contains(what, "/") && looksLikeHost(what) {
		return what // a registry: "127.0.0.1:5000" is no repository
	}
	if ref, err := name.ParseReference(what, name.WeakValidation); err == nil {
		return ref.Context().RegistryStr()
	}
	if repo, err := name.NewRepository(what, name.WeakValidation); err == nil {
		return repo.RegistryStr()
	}
	host, _, _ := strings.Cut(what, "/")
	return host
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

// refusedCredentials says that the registry refused the client's
// credentials, naming the variable they came from when they did not come
// from the profile (whose stored password may well be right).
func (c *Client) refusedCredentials() string {
	if c.passwordEnv != "" {
		return fmt.Sprintf("the registry refused the credentials of %s: the password in %s is wrong (or the username); fix it, or unset %s to use the stored login", c.user, c.passwordEnv, c.passwordEnv)
	}
	return fmt.Sprintf("the registry refused the credentials of %s: wrong username or password; run `forge image login`", c.user)
}
