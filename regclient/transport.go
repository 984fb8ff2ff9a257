package regclient

import (
	"net/http"
	"strings"
	"sync"
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
type regTransport struct {
	inner    http.RoundTripper
	httpHost string // host[:port] given with http://, "" for none

	mu     sync.Mutex
	scopes map[string]string // "METHOD URL" -> the scope asked for
}

func (t *regTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.httpHost != "" && req.URL.Scheme == "https" && strings.EqualFold(req.URL.Host, t.httpHost) {
		req = req.Clone(req.Context())
		req.URL.Scheme = "http"
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

// insufficientScope parses a Bearer challenge and reports whether it says
// error="insufficient_scope", with its scope parameter.
func insufficientScope(challenge string) (scope string, ok bool) {
	kind, params, _ := strings.Cut(strings.TrimSpace(challenge), " ")
	if !strings.EqualFold(kind, "Bearer") {
		return "", false
	}
	for _, p := range splitParams(params) {
		k, v, _ := strings.Cut(p, "=")
		v = strings.Trim(strings.TrimSpace(v), `"`)
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "error":
			ok = v == "insufficient_scope"
		case "scope":
			scope = v
		}
	}
	return scope, ok
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
