package tuitest

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/refserver"
)

// Marker is what Hostile adds to every string the service sends: a
// window title (OSC 0), a window resize (CSI t), a C1 CSI, a hyperlink
// (OSC 8), a clipboard write (OSC 52) and bidi overrides. None of it may
// reach the terminal as sent.
const Marker = "\x1b]0;pwned\a\x1b[8;3;3t\u009b2J\u202eevil\u2066\x1b]8;;http://evil.example\x1b\\link\x1b]8;;\x1b\\\x1b]52;c;cHduZWQ=\a"

// Hostile serves srv's three interfaces with Marker added to every
// string of every record: JSON values (file contents too), log lines and
// the chat stream's events. The names it sends come back with the
// marker in request paths and queries; it takes it out before passing
// them on, so the hostile world works like the demo world. It returns
// the proxy's address, which stands for srv.URL().
func Hostile(t testing.TB, srv *refserver.Server) string {
	t.Helper()
	target, err := url.Parse(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	p := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(target)
		u := r.Out.URL
		// A client that drops empty path segments sends the marker's
		// "//" as "/".
		u.Path = strings.ReplaceAll(strings.ReplaceAll(u.Path, Marker, ""), strings.ReplaceAll(Marker, "//", "/"), "")
		u.RawPath = ""
		if q, err := url.ParseQuery(u.RawQuery); err == nil {
			for k, vs := range q {
				for i := range vs {
					vs[i] = strings.ReplaceAll(strings.ReplaceAll(vs[i], Marker, ""), HeaderMarker, "")
				}
				q[k] = vs
			}
			u.RawQuery = q.Encode()
		}
		// Whole logs: the marked bytes do not line up with the server's
		// offsets, and a client must cope with a server that ignores
		// ranges.
		r.Out.Header.Del("Range")
		r.Out.Header.Del("Accept-Encoding")
	}}
	var self string // the proxy's address, once it listens
	// The service builds the addresses it sends (the registry's realm,
	// Link, clone_url...) from its public URL, srv.URL(): they must name
	// the proxy, as a proxy in front of a server without --public-url
	// would make them.
	rebase := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte(srv.URL()), []byte(self)) }
	p.ModifyResponse = func(resp *http.Response) error {
		for _, h := range []string{"Www-Authenticate", "Link", "Location"} {
			if v := resp.Header.Get(h); v != "" {
				resp.Header.Set(h, string(rebase([]byte(v))))
			}
		}
		return hostileBody(resp, rebase)
	}
	p.FlushInterval = -1
	s := httptest.NewUnstartedServer(p)
	self = "http://" + s.Listener.Addr().String()
	s.Start()
	t.Cleanup(s.Close)
	return s.URL
}

func hostileBody(resp *http.Response, rebase func([]byte) []byte) error {
	markChallenge(resp.Header)
	path := resp.Request.URL.Path
	if resp.StatusCode < 400 && (strings.Contains(path, "/manifests/") || strings.Contains(path, "/blobs/") || strings.HasSuffix(path, "/token")) {
		return nil // digests and tokens must stay what they are
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return err
	}
	ct := resp.Header.Get("Content-Type")
	switch {
	case strings.Contains(ct, "json"):
		body = markJSON(rebase(body))
	case strings.Contains(ct, "event-stream"):
		body = markEvents(body)
	case strings.HasPrefix(ct, "text/"):
		body = bytes.ReplaceAll(body, []byte("\n"), []byte(Marker+"\n"))
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
	resp.Header.Del("Content-Range")
	if resp.StatusCode == http.StatusPartialContent {
		resp.StatusCode, resp.Status = http.StatusOK, "200 OK"
	}
	return nil
}

// challengeParam is a quoted parameter of a WWW-Authenticate challenge.
var challengeParam = regexp.MustCompile(`(service|error|error_description)="([^"]*)"`)

// HeaderMarker is what of Marker a quoted header parameter can carry:
// Go's client takes a header with an ASCII control for a broken
// connection, but C1 and bidi controls (as UTF-8) pass. (Without the
// backslashes, a quoted string's escapes, too.)
var HeaderMarker = strings.Map(func(r rune) rune {
	if r < 0x20 || r == 0x7f || r == '\\' {
		return -1
	}
	return r
}, Marker)

// markChallenge adds HeaderMarker to what a registry's challenge says
// (the service, which comes back in the token request, and the error),
// but not to the realm, which must stay an address to fetch.
func markChallenge(h http.Header) {
	for i, c := range h.Values("WWW-Authenticate") {
		h["Www-Authenticate"][i] = challengeParam.ReplaceAllString(c, `$1="$2`+strings.ReplaceAll(HeaderMarker, `$`, `$$`)+`"`)
	}
}

// markJSON adds Marker to every string of a JSON document.
func markJSON(body []byte) []byte {
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return body
	}
	out, err := json.Marshal(mark("", v))
	if err != nil {
		return body
	}
	return out
}

func mark(key string, v any) any {
	switch x := v.(type) {
	case map[string]any:
		b64 := x["encoding"] == "base64"
		for k, e := range x {
			if k == "content" && b64 {
				if s, ok := e.(string); ok {
					if raw, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(s, "\n", "")); err == nil {
						x[k] = base64.StdEncoding.EncodeToString(append(raw, Marker...))
					}
				}
				continue
			}
			x[k] = mark(k, e)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = mark(key, e)
		}
		return x
	case string:
		switch key {
		case "encoding", "type", "token", "access_token", "digest":
			return x
		}
		if _, err := time.Parse(time.RFC3339, x); err == nil {
			return x
		}
		return x + Marker
	}
	return v
}

// markEvents marks the JSON of every data line of an event stream.
func markEvents(body []byte) []byte {
	var out bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if data, ok := strings.CutPrefix(line, "data:"); ok {
			line = "data: " + string(markJSON([]byte(strings.TrimSpace(data))))
		}
		out.WriteString(line + "\n")
	}
	return out.Bytes()
}
