package regclient

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/forgehq/forge/internal/origin"
)

// regTransport carries every request of a Client. It does two things
// go-containerregistry does not:
//
//   - The registry whose address was given as http:// is spoken to over
//     plain HTTP only. go-containerregistry tries HTTPS first for every
//     registry (racing HTTP as a fallback), which sends a TLS handshake to a
//     plain-HTTP server and, when the fallback fails too, shows "tls: first
//     record does not look like a TLS handshake" instead of the real error.
//     Only the host given with http:// is rewritten: any other registry is
//     reached as go-containerregistry decides.
//   - It remembers which requests a registry refused for want of scope
//     (`WWW-Authenticate: Bearer ... error="insufficient_scope"`): the
//     token was issued, so the credentials were right, but the account may
//     not do this. go-containerregistry's errors keep no response headers.
//   - The password goes only where it belongs: a request carrying it to an
//     origin other than the registry's and its token service's (the
//     service's base URL, or one the user trusted) fails before it is sent. A registry names its
//     token service in its challenge, so a hostile or misconfigured one
//     could otherwise collect the password at a realm of its choosing.
type regTransport struct {
	inner    http.RoundTripper
	httpHost string // host[:port] given with http://, "" for none

	basic   string   // the Authorization header carrying the password, "" for none
	allowed []string // the origins that may receive it (origin.Of), the registry's first

	mu     sync.Mutex
	scopes map[string]string // "METHOD URL" -> the scope asked for
}

func (t *regTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.httpHost != "" && req.URL.Scheme == "https" && strings.EqualFold(req.URL.Host, t.httpHost) {
		req = req.Clone(req.Context())
		req.URL.Scheme = "http"
	}
	if t.basic != "" && req.Header.Get("Authorization") == t.basic && !t.mayReceive(req.URL) {
		return nil, &WithheldError{Host: req.URL.Host, Origin: origin.Of(req.URL), Registry: registryHost(t.allowed[0])}
	}
	if req.Method == http.MethodGet && strings.Contains(req.URL.Path, "/blobs/") && req.Header.Get("Accept-Encoding") == "" {
		// A blob is taken as stored: not offered compressed, so the
		// transport's bound on what an answer decodes to (internal/wire,
		// for answers read into memory) never cuts a large layer.
		req = req.Clone(req.Context())
		req.Header.Set("Accept-Encoding", "identity")
	}
	if s, ok := req.Body.(interface{ uploadStarted(*url.URL) }); ok && req.Method == http.MethodPatch {
		s.uploadStarted(req.URL)
	}
	resp, err := t.inner.RoundTrip(req)
	if err != nil || (resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden) {
		return resp, err
	}
	for _, h := range resp.Header.Values("WWW-Authenticate") {
		if scope, ok := insufficientScope(h); ok {
			t.mu.Lock()
			if t.scopes == nil {
				t.scopes = map[string]string{}
			}
			if len(t.scopes) < 256 {
				t.scopes[requestKey(req)] = scope
			}
			t.mu.Unlock()
		}
	}
	return resp, err
}

// pinned is t for another user and password (a login being checked),
// pinned to the same origins.
func (t *regTransport) pinned(user, password string) *regTransport {
	return &regTransport{inner: t.inner, httpHost: t.httpHost, allowed: t.allowed, basic: basicAuth(user, password)}
}

// pinOrigins is where a registry's password may go: the registry's origin
// first, then the token origins given (a bare host[:port] is https), each
// in canonical form (origin.Of).
func pinOrigins(registry *url.URL, tokenOrigins []string) []string {
	allowed := []string{origin.Of(registry)}
	for _, o := range tokenOrigins {
		if c := origin.OfHost(o); c != "" && !slices.Contains(allowed, c) {
			allowed = append(allowed, c)
		}
	}
	return allowed
}

// registryHost is the host[:port] of a canonical origin, for messages.
func registryHost(o string) string {
	u, err := url.Parse(o)
	if err != nil {
		return o
	}
	return u.Host
}

func basicAuth(user, password string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+password))
}

// mayReceive reports whether the password may go to u's origin: exactly
// one of the allowed origins.
func (t *regTransport) mayReceive(u *url.URL) bool {
	o := origin.Of(u)
	return o != "" && slices.Contains(t.allowed, o)
}

// WithheldError is a request forge did not send because it would have
// carried the registry password to another host.
type WithheldError struct {
	Host     string // where the request was going, host[:port]
	Origin   string // its origin, scheme://host:port
	Registry string // the registry the password is for
}

func (e *WithheldError) Error() string {
	return fmt.Sprintf("the registry %s sends its login to %s, another origin: forge did not send the password it holds for %s there; if you trust that token service, run `forge image login --trust-token-host %s`", e.Registry, e.Origin, e.Registry, e.Host)
}

// refusedScope reports whether the registry refused req for want of
// scope, and the scope it asked for ("" when it named none).
func (t *regTransport) refusedScope(req *http.Request) (string, bool) {
	if req == nil || req.URL == nil {
		return "", false
	}
	key := requestKey(req)
	if req.URL.Scheme == "https" && strings.EqualFold(req.URL.Host, t.httpHost) {
		u := *req.URL
		u.Scheme = "http"
		key = req.Method + " " + u.String()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	scope, ok := t.scopes[key]
	return scope, ok
}

func requestKey(req *http.Request) string { return req.Method + " " + req.URL.String() }

// challengeParam is a parameter of a Bearer challenge, "" when absent.
func challengeParam(challenge, param string) string {
	kind, params, _ := strings.Cut(strings.TrimSpace(challenge), " ")
	if !strings.EqualFold(kind, "Bearer") {
		return ""
	}
	for _, p := range splitParams(params) {
		k, v, _ := strings.Cut(p, "=")
		if strings.EqualFold(strings.TrimSpace(k), param) {
			return strings.Trim(strings.TrimSpace(v), `"`)
		}
	}
	return ""
}

// insufficientScope parses a Bearer challenge and reports whether it says
// error="insufficient_scope", with its scope parameter.
func insufficientScope(challenge string) (scope string, ok bool) {
	return challengeParam(challenge, "scope"), challengeParam(challenge, "error") == "insufficient_scope"
}

// splitParams splits a challenge's comma-separated parameters, leaving
// commas inside quoted values alone.
func splitParams(s string) []string {
	var out []string
	quoted, start := false, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			quoted = !quoted
		case ',':
			if !quoted {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}
