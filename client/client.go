// Package client is forge's typed client for the hosting service's REST
// API, version 2 (../shared/spec/hosting-service.md, part A).
//
//	c, err := client.New("https://forge.example.com/api/v2", token)
//	me, err := c.Account.Me(ctx)
//	for issue, err := range c.Issues.List(ctx, repo, client.IssueListOptions{State: "open"}) { ... }
//
// One service per resource (Account, Keys, Repos, Issues, Pulls, Releases,
// Actions, Admin); every call takes a context. What the client does for
// every request, so callers never have to:
//
//   - sends `Authorization: token TOKEN` — only to the configured scheme and
//     host, never to another host a redirect or a pagination link points
//     at — and never on POST /auth/login;
//   - sends a User-Agent with forge's version and Accept: application/json;
//   - turns every non-2xx answer into one *Error (HTTP status plus the
//     server's `error` message, or a summary of a body that is not JSON),
//     which implements HTTPStatus() so a 401 becomes exit code 4;
//   - retries idempotent requests (GET, HEAD) on connection errors, 429,
//     502, 503 and 504, with exponential backoff and jitter, honouring
//     Retry-After; POST, PATCH, PUT and DELETE are never retried, because
//     the first attempt may have taken effect;
//   - bounds each attempt by a timeout (WithTimeout; default 30s);
//   - follows `Link: <...>; rel="next"` pages lazily in its list iterators.
//
// Decoding is tolerant (docs/DESIGN.md, "Tolerant reader"): unknown fields
// are ignored, missing ones stay zero, a field of an unexpected JSON type is
// left zero instead of failing the whole record, and every record keeps the
// exact JSON the server sent (RawJSON) so `--json` can print all of it.
package client

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/forgehq/forge/internal/build"
	"github.com/forgehq/forge/internal/httpwait"
	"github.com/forgehq/forge/internal/origin"
	"github.com/forgehq/forge/internal/wire"
)

// DefaultTimeout bounds one attempt of a request: connecting, sending, and
// reading the whole response. It is httpwait's default, the one wait forge
// uses on all three interfaces.
const DefaultTimeout = httpwait.Default

// Client talks to one deployment of the REST API as one user.
type Client struct {
	base      *url.URL // ends without a slash, e.g. https://h/api/v2
	token     string
	http      *http.Client
	userAgent string
	timeout   time.Duration
	retry     RetryPolicy
	notify    func(string)
	tokenFix  string                                     // see WithTokenFix
	sleep     func(context.Context, time.Duration) error // replaced in tests
	jitter    func(time.Duration) time.Duration          // replaced in tests

	Account  *AccountService
	Keys     *KeysService
	Repos    *ReposService
	Issues   *IssuesService
	Pulls    *PullsService
	Releases *ReleasesService
	Actions  *ActionsService
	Admin    *AdminService
}

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient makes the client send its requests through hc, sharing its
// connection pool and transport (forge passes its one traced client). The
// client copies hc and sets its own redirect policy on the copy.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *Client) {
		if hc != nil {
			cp := *hc
			c.http = &cp
		}
	}
}

// WithUserAgent replaces the User-Agent header (default forge/VERSION).
func WithUserAgent(ua string) Option { return func(c *Client) { c.userAgent = ua } }

// WithTimeout bounds each attempt of a request; 0 or less means no bound
// beyond the caller's context.
func WithTimeout(d time.Duration) Option { return func(c *Client) { c.timeout = d } }

// WithRetryPolicy replaces the retry policy; RetryPolicy{} turns retries off.
func WithRetryPolicy(p RetryPolicy) Option { return func(c *Client) { c.retry = p } }

// WithNotify receives the client's messages for the user: the warning about
// a plain-http base URL and "retrying in ..." notes on long waits. forge
// prints them to stderr; without it they are dropped. fn runs on the
// goroutine of the request it is about: a client used from several
// goroutines calls it from each, possibly at once.
func WithNotify(fn func(msg string)) Option { return func(c *Client) { c.notify = fn } }

// WithTokenFix replaces what a rejected token's error tells the user to do
// (by default "run `forge auth login`"): forge says to set another
// FORGE_TOKEN when the token came from there.
func WithTokenFix(fix string) Option { return func(c *Client) { c.tokenFix = fix } }

// New returns a client for the REST API at baseURL (ending in /api/v2) that
// authenticates with token; an empty token makes anonymous requests, which
// is what Account.Login needs.
//
// A base URL with plain http:// to a host other than loopback is accepted
// but reported through WithNotify: the token and passwords would cross the
// network unencrypted.
func New(baseURL, token string, opts ...Option) (*Client, error) {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("malformed base URL %q: give a full http:// or https:// URL, as in https://forge.example.com/api/v2", baseURL)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawQuery, u.Fragment = "", ""
	c := &Client{
		base:      u,
		token:     token,
		http:      &http.Client{Transport: wire.Default()},
		userAgent: build.UserAgent(),
		timeout:   DefaultTimeout,
		retry:     DefaultRetryPolicy(),
		sleep:     sleepCtx,
		jitter:    func(d time.Duration) time.Duration { return rand.N(d + 1) },
	}
	for _, o := range opts {
		o(c)
	}
	c.wire()
	if u.Scheme == "http" && !isLoopback(u.Hostname()) {
		c.say(fmt.Sprintf("warning: %s is plain http to a host that is not this machine; your token and password cross the network unencrypted. Use https:// if the service offers it.", c.Origin()))
	}
	return c, nil
}

// wire points the services and the redirect policy at c.
func (c *Client) wire() {
	c.http.CheckRedirect = c.checkRedirect
	c.Account = &AccountService{c}
	c.Keys = &KeysService{c}
	c.Repos = &ReposService{c}
	c.Issues = &IssuesService{c}
	c.Pulls = &PullsService{c}
	c.Releases = &ReleasesService{c}
	c.Actions = &ActionsService{c}
	c.Admin = &AdminService{c}
}

// BaseURL is the REST API's base URL, without a trailing slash.
func (c *Client) BaseURL() string { return c.base.String() }

// Origin is scheme://host[:port] of the base URL, for messages.
func (c *Client) Origin() string { return c.base.Scheme + "://" + c.base.Host }

// HasToken reports whether the client authenticates its requests.
func (c *Client) HasToken() bool { return c.token != "" }

// WithToken returns a copy of the client that authenticates with token,
// sharing the connection pool — how a login goes on with the token it got.
func (c *Client) WithToken(token string) *Client {
	cp := *c
	cp.token = token
	hc := *c.http
	cp.http = &hc
	cp.wire()
	return &cp
}

func (c *Client) say(msg string) {
	if c.notify != nil {
		c.notify(msg)
	}
}

// isLoopback reports whether host names this machine: origin.IsLoopback's
// names, and any name under .localhost (RFC 6761 keeps it on loopback).
func isLoopback(host string) bool {
	return origin.IsLoopback(host) || strings.HasSuffix(strings.ToLower(host), ".localhost")
}

// sameOrigin reports whether u is on the configured origin, the only
// place the token may go.
func (c *Client) sameOrigin(u *url.URL) bool { return origin.Same(u, c.base) }

// checkRedirect is forge's one redirect rule (origin.CheckRedirect), and
// also strips the token from a redirect that leaves the configured origin
// (a request to another origin never carried it).
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	if err := origin.CheckRedirect(req, via); err != nil {
		return err
	}
	if !c.sameOrigin(req.URL) {
		req.Header.Del("Authorization")
	}
	return nil
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// drain reads what is left of a body (up to a limit) so the connection can
// be reused, and closes it.
func drain(body io.ReadCloser) {
	_, _ = io.CopyN(io.Discard, body, 64<<10)
	body.Close()
}
