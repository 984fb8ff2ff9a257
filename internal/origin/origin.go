// Package origin holds forge's one rule for where a credential may go: to
// the origin (scheme, host, port) it was stored or configured for, and
// nowhere else — not to another port of the same host, not to http after
// https, not along a redirect. The REST, agent and registry clients and
// the resolution of settings all compare origins here.
package origin

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// Of returns the canonical origin of u: lower-case scheme and host with an
// explicit port ("https://forge.example.com:443"), or "" when u has no
// http(s) scheme or no host.
func Of(u *url.URL) string {
	if u == nil || u.Host == "" {
		return ""
	}
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	switch {
	case port != "":
	case scheme == "http":
		port = "80"
	case scheme == "https":
		port = "443"
	default:
		return ""
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// OfString is Of for a URL given as text; "" when it does not parse.
func OfString(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return ""
	}
	return Of(u)
}

// OfHost is OfString for an origin that may be given as a bare
// host[:port] (as a flag or an older configuration names a token
// service), which means https.
func OfHost(s string) string {
	s = strings.TrimSpace(s)
	if s != "" && !strings.Contains(s, "://") {
		s = "https://" + s
	}
	return OfString(s)
}

// Same reports whether a and b have the same origin. Two URLs without an
// origin are not the same.
func Same(a, b *url.URL) bool {
	oa := Of(a)
	return oa != "" && oa == Of(b)
}

// SameString is Same for URLs given as text.
func SameString(a, b string) bool {
	oa := OfString(a)
	return oa != "" && oa == OfString(b)
}

// MaxRedirects is how many redirects a request follows.
const MaxRedirects = 10

// CheckRedirect is the redirect policy of every forge HTTP client: a
// request that a redirect sends to another origin than the one it was
// first sent to loses its Authorization header. (net/http keeps it for the
// same host name on another port, for subdomains, and for http after
// https.) A request that sends something (any method but GET and HEAD:
// a login's password, a new password, a chat message) is not redirected
// to another origin at all: a 307 or 308 would replay its body there, and
// after any redirect the other origin's answer (a token, say) would be
// taken for the service's. It stops after MaxRedirects hops.
func CheckRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= MaxRedirects {
		return errors.New("stopped after 10 redirects")
	}
	if len(via) > 0 && !Same(req.URL, via[0].URL) {
		if m := via[0].Method; m != http.MethodGet && m != http.MethodHead {
			return &RedirectError{Method: m, From: via[0].URL.Redacted(), To: req.URL.Redacted()}
		}
		req.Header.Del("Authorization")
	}
	return nil
}

// RedirectError is a request that sends something redirected to another
// origin: refused, nothing sent there.
type RedirectError struct{ Method, From, To string }

func (e *RedirectError) Error() string {
	return fmt.Sprintf("%s %s was redirected to %s, another origin; forge sent nothing there and took no answer from it. If the service has moved, point the profile at its new address (forge profile add NAME --force --base-url URL)", e.Method, e.From, e.To)
}

// Guard wraps a transport with the same rule as CheckRedirect, for
// clients whose redirect policy forge does not set (the registry client's
// requests are made by go-containerregistry's own http.Client): a request
// made by following a redirect to another origin than the one the chain
// began at goes out without its Authorization header.
func Guard(rt http.RoundTripper) http.RoundTripper { return guard{rt} }

type guard struct{ rt http.RoundTripper }

func (g guard) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Response != nil && req.Header.Get("Authorization") != "" {
		first := req.Response.Request
		for first != nil && first.Response != nil {
			first = first.Response.Request
		}
		if first != nil && !Same(req.URL, first.URL) {
			req = req.Clone(req.Context())
			req.Header.Del("Authorization")
		}
	}
	return g.rt.RoundTrip(req)
}

// SameHost reports whether two host[:port] names, as docker's tools name a
// registry, are the same server: the same name (in any case) and port, or
// two loopback names — localhost, 127.0.0.0/8, ::1 — with the same port,
// which are this machine whichever name it is reached by. No other names
// are taken for each other, even if they resolve alike: a credential
// stored for one real host is never lent to another.
func SameHost(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if strings.EqualFold(a, b) {
		return true
	}
	ha, pa := splitHostPort(a)
	hb, pb := splitHostPort(b)
	return pa == pb && IsLoopback(ha) && IsLoopback(hb)
}

// splitHostPort splits host[:port], IPv6 literals in brackets.
func splitHostPort(s string) (host, port string) {
	if h, p, err := net.SplitHostPort(s); err == nil {
		return h, p
	}
	return strings.Trim(s, "[]"), ""
}

// IsLoopback reports whether host (without a port) is this machine only:
// localhost or a loopback IP address.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
