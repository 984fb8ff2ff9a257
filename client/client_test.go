package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// These tests use httptest servers that misbehave on purpose — dropping
// connections, answering with proxy HTML, stalling — to test the client's
// transport rules. The API itself is tested against the reference server
// in the testscript scenarios.

// newTestClient returns a client for srv with fast, recorded backoff.
func newTestClient(t *testing.T, srv *httptest.Server, opts ...Option) (*Client, *[]time.Duration) {
	t.Helper()
	var mu sync.Mutex
	var waits []time.Duration
	opts = append([]Option{WithRetryPolicy(RetryPolicy{MaxRetries: 3, BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second, MaxRetryAfter: 30 * time.Second})}, opts...)
	c, err := New(srv.URL+"/api/v2", "tok_secret_123456", opts...)
	if err != nil {
		t.Fatal(err)
	}
	c.sleep = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		waits = append(waits, d)
		mu.Unlock()
		return ctx.Err()
	}
	return c, &waits
}

func TestRetriesIdempotentOn503ThenSucceeds(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) <= 2 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte(`{"login":"alice"}`))
	}))
	defer srv.Close()
	c, waits := newTestClient(t, srv)
	me, err := c.Account.Me(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if me.Login != "alice" || n.Load() != 3 {
		t.Fatalf("login %q after %d requests", me.Login, n.Load())
	}
	// Backoff doubles and carries jitter within [d/2, d].
	if len(*waits) != 2 {
		t.Fatalf("waits = %v", *waits)
	}
	for i, w := range *waits {
		d := 100 * time.Millisecond << i
		if w < d/2 || w > d {
			t.Errorf("wait %d = %v, want within [%v, %v]", i, w, d/2, d)
		}
	}
}

func TestNeverRetriesPostPatchDelete(t *testing.T) {
	t.Parallel()
	for _, method := range []string{http.MethodPost, http.MethodPatch, http.MethodDelete, http.MethodPut} {
		var n atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n.Add(1)
			w.WriteHeader(http.StatusServiceUnavailable)
		}))
		c, _ := newTestClient(t, srv)
		_, err := c.Do(context.Background(), method, "/me/keys", map[string]string{"a": "b"}, nil)
		srv.Close()
		if !HasStatus(err, 503) || n.Load() != 1 {
			t.Errorf("%s: err %v after %d requests; want one request", method, err, n.Load())
		}
	}
}

func TestRetryAfterHonoured(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.Write([]byte(`[]`))
	}))
	defer srv.Close()
	var notes []string
	c, waits := newTestClient(t, srv, WithNotify(func(s string) { notes = append(notes, s) }))
	if _, err := Collect(c.Repos.List(context.Background(), ListOptions{}), 0); err != nil {
		t.Fatal(err)
	}
	if len(*waits) != 1 || (*waits)[0] != 7*time.Second {
		t.Fatalf("waits = %v, want [7s]", *waits)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "retrying in 7s") {
		t.Fatalf("notes = %q", notes)
	}
}

func TestRetryAfterHTTPDate(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if d := parseRetryAfter(now.Add(90*time.Second).Format(http.TimeFormat), now); d != 90*time.Second {
		t.Fatalf("date form: %v", d)
	}
	for _, bad := range []string{"", "soon", "-3", now.Add(-time.Hour).Format(http.TimeFormat)} {
		if d := parseRetryAfter(bad, now); d != 0 {
			t.Errorf("%q: %v", bad, d)
		}
	}
}

func TestRetryAfterTooLongIsNotWaited(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Retry-After", "3600")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		w.Write([]byte(`{"error":"rate limit exceeded"}`))
	}))
	defer srv.Close()
	c, waits := newTestClient(t, srv)
	_, err := c.Account.Me(context.Background())
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.RetryAfter != time.Hour || n.Load() != 1 || len(*waits) != 0 {
		t.Fatalf("err %v, %d requests, waits %v", err, n.Load(), *waits)
	}
	if !strings.Contains(err.Error(), "rate limit exceeded") || !strings.Contains(err.Error(), "retry after 1h0m0s") {
		t.Fatalf("message: %v", err)
	}
}

func TestHTML502IsRetriedThenReported(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		w.Write([]byte("<html><body><h1>502 Bad Gateway</h1>nginx</body></html>"))
	}))
	defer srv.Close()
	c, _ := newTestClient(t, srv)
	_, err := c.Account.State(context.Background())
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.HTTPStatus() != 502 {
		t.Fatalf("err = %v", err)
	}
	if n.Load() != 4 {
		t.Errorf("%d requests, want 1 + 3 retries", n.Load())
	}
	msg := err.Error()
	for _, want := range []string{"HTTP 502: Bad Gateway", "/api/v2/me/state", "an HTML page, not JSON"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	if strings.Contains(msg, "<html>") {
		t.Errorf("message dumps HTML: %q", msg)
	}
}

// dropFirst closes the first n connections without answering.
func dropFirst(n int32, ok http.HandlerFunc) (http.HandlerFunc, *atomic.Int32) {
	var count atomic.Int32
	return func(w http.ResponseWriter, r *http.Request) {
		if count.Add(1) <= n {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		ok(w, r)
	}, &count
}

func TestDroppedConnectionRetriedForGET(t *testing.T) {
	t.Parallel()
	h, count := dropFirst(2, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"role":"user"}`)) })
	srv := httptest.NewServer(h)
	defer srv.Close()
	c, waits := newTestClient(t, srv)
	st, err := c.Account.State(context.Background())
	if err != nil || st.Role != "user" {
		t.Fatalf("state %+v, err %v", st, err)
	}
	if count.Load() < 3 || len(*waits) < 1 {
		t.Fatalf("%d requests, waits %v", count.Load(), *waits)
	}
}

func TestDroppedConnectionNotRetriedForPOST(t *testing.T) {
	t.Parallel()
	h, count := dropFirst(1, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(201) })
	srv := httptest.NewServer(h)
	defer srv.Close()
	c, waits := newTestClient(t, srv)
	_, err := c.Keys.Add(context.Background(), "laptop", "ssh-ed25519 AAAA")
	var ne *NetworkError
	if !errors.As(err, &ne) || count.Load() != 1 || len(*waits) != 0 {
		t.Fatalf("err %v after %d requests, waits %v", err, count.Load(), *waits)
	}
	if !strings.Contains(err.Error(), srv.URL+"/api/v2/me/keys") {
		t.Errorf("message does not name the URL: %v", err)
	}
}

func TestConnectionRefusedNamesURL(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	c, err := New("http://"+addr+"/api/v2", "t", WithRetryPolicy(RetryPolicy{MaxRetries: 2, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Account.Me(context.Background())
	var ne *NetworkError
	if !errors.As(err, &ne) || !strings.Contains(err.Error(), "cannot reach the service at http://"+addr+"/api/v2/me") || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("err = %v", err)
	}
}

func TestSlowResponseTimesOutWithoutRetry(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if r.URL.Path == "/api/v2/me/state" {
			// Headers at once, then a body that stalls.
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"role":`))
			w.(http.Flusher).Flush()
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	c, waits := newTestClient(t, srv, WithTimeout(150*time.Millisecond))
	for _, call := range []func() error{
		func() error { _, err := c.Account.Me(context.Background()); return err },
		func() error { _, err := c.Account.State(context.Background()); return err },
	} {
		n.Store(0)
		err := call()
		var te *TimeoutError
		if !errors.As(err, &te) || !strings.Contains(err.Error(), "no answer within 150ms") {
			t.Fatalf("err = %v", err)
		}
		if n.Load() != 1 || len(*waits) != 0 {
			t.Fatalf("%d requests, waits %v: a timeout must not be retried", n.Load(), *waits)
		}
	}
}

func TestCancelDuringBackoff(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	c, err := New(srv.URL+"/api/v2", "t", WithRetryPolicy(RetryPolicy{MaxRetries: 5, BaseDelay: time.Hour, MaxDelay: time.Hour}))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err = c.Account.Me(ctx)
	if !errors.Is(err, context.Canceled) || time.Since(start) > 10*time.Second {
		t.Fatalf("err %v after %v", err, time.Since(start))
	}
}

func TestErrorDecoding(t *testing.T) {
	t.Parallel()
	cases := []struct {
		status      int
		ctype, body string
		want        string
	}{
		{404, "application/json", `{"error":"repository not found"}`, "HTTP 404: repository not found (GET "},
		{422, "application/json", `{"message":"Validation Failed","errors":[{"message":"name taken"}]}`, "HTTP 422: Validation Failed"},
		{400, "application/json", `{"errors":["title is required","body too long"]}`, "HTTP 400: title is required; body too long"},
		{403, "application/json", `{"error":{"message":"admins only"}}`, "HTTP 403: admins only"},
		{500, "text/plain", "upstream exploded\nstack...", `HTTP 500: Internal Server Error (GET `},
		{418, "", "", "HTTP 418: I'm a teapot"},
	}
	for _, tc := range cases {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if tc.ctype != "" {
				w.Header().Set("Content-Type", tc.ctype)
			}
			w.WriteHeader(tc.status)
			io.WriteString(w, tc.body)
		}))
		c, _ := newTestClient(t, srv, WithRetryPolicy(RetryPolicy{}))
		_, err := c.Repos.Get(context.Background(), RepoName{"alice", "demo"})
		srv.Close()
		var apiErr *Error
		if !errors.As(err, &apiErr) || apiErr.StatusCode != tc.status || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%d %s: err = %v; want it to contain %q", tc.status, tc.body, err, tc.want)
		}
		if tc.status == 500 && !strings.Contains(err.Error(), `"upstream exploded"`) {
			t.Errorf("text body not summarised: %v", err)
		}
	}
}

func TestUnauthorizedWithTokenSaysLogIn(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(401)
		w.Write([]byte(`{"error":"invalid token"}`))
	}))
	defer srv.Close()
	c, _ := newTestClient(t, srv)
	_, err := c.Account.Me(context.Background())
	var apiErr *Error
	if !errors.As(err, &apiErr) || !apiErr.TokenRejected() || apiErr.HTTPStatus() != 401 || !strings.Contains(err.Error(), "run `forge auth login`") {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), "tok_secret") {
		t.Fatal("error shows the token")
	}
	// The login is anonymous: a 401 there is wrong credentials, not a
	// rejected token.
	_, err = c.Account.Login(context.Background(), "alice", "nope")
	if !errors.As(err, &apiErr) || apiErr.TokenRejected() || strings.Contains(err.Error(), "auth login") {
		t.Fatalf("login err = %v", err)
	}
}

func TestHeaders(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	got := map[string]http.Header{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got[r.URL.Path] = r.Header.Clone()
		mu.Unlock()
		w.Write([]byte(`{"token":"new_token_abcdef"}`))
	}))
	defer srv.Close()
	c, _ := newTestClient(t, srv, WithUserAgent("forge/9.9.9"))
	if _, err := c.Account.Me(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Account.Login(context.Background(), "alice", "pw"); err != nil {
		t.Fatal(err)
	}
	me := got["/api/v2/me"]
	if me.Get("Authorization") != "token tok_secret_123456" || me.Get("User-Agent") != "forge/9.9.9" || me.Get("Accept") != "application/json" {
		t.Errorf("GET /me headers: %v", me)
	}
	login := got["/api/v2/auth/login"]
	if login.Get("Authorization") != "" || login.Get("Content-Type") != "application/json" {
		t.Errorf("login headers: %v", login)
	}
}

func TestCrossHostRedirectDropsToken(t *testing.T) {
	t.Parallel()
	var other http.Header
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		other = r.Header.Clone()
		w.Write([]byte(`{"login":"elsewhere"}`))
	}))
	defer elsewhere.Close()
	var same http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/v2/me":
			http.Redirect(w, r, "/api/v2/users/me", http.StatusFound)
		case "/api/v2/users/me":
			same = r.Header.Clone()
			http.Redirect(w, r, elsewhere.URL+"/me", http.StatusTemporaryRedirect)
		}
	}))
	defer srv.Close()
	c, _ := newTestClient(t, srv)
	me, err := c.Account.Me(context.Background())
	if err != nil || me.Login != "elsewhere" {
		t.Fatalf("me %+v, err %v", me, err)
	}
	if same.Get("Authorization") == "" {
		t.Error("same-host redirect lost the token")
	}
	// Another port is another origin, though net/http alone would forward
	// the header to the same host name.
	if other.Get("Authorization") != "" {
		t.Errorf("token sent across hosts: %q", other.Get("Authorization"))
	}
}

func TestPlainHTTPWarning(t *testing.T) {
	t.Parallel()
	cases := map[string]bool{
		"http://forge.example.com/api/v2":  true,
		"http://10.0.0.7:8080/api/v2":      true,
		"https://forge.example.com/api/v2": false,
		"http://127.0.0.1:8080/api/v2":     false,
		"http://localhost:8080/api/v2":     false,
		"http://[::1]:8080/api/v2":         false,
	}
	for base, warn := range cases {
		var notes []string
		if _, err := New(base, "t", WithNotify(func(s string) { notes = append(notes, s) })); err != nil {
			t.Fatal(err)
		}
		if warn != (len(notes) == 1 && strings.Contains(notes[0], "unencrypted")) {
			t.Errorf("%s: notes %q", base, notes)
		}
	}
	if _, err := New("ftp://x/api/v2", ""); err == nil {
		t.Error("ftp accepted")
	}
}

func TestStreamJobLogs(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		if r.URL.Path != "/api/v2/repos/alice/demo/actions/jobs/7/logs" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		for i := range 3 {
			fmt.Fprintf(w, "line %d\n", i)
			w.(http.Flusher).Flush()
		}
	}))
	defer srv.Close()
	c, _ := newTestClient(t, srv, WithTimeout(time.Second))
	rc, err := c.Actions.JobLogs(context.Background(), RepoName{"alice", "demo"}, 7)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil || string(b) != "line 0\nline 1\nline 2\n" {
		t.Fatalf("log %q, err %v", b, err)
	}
}

func TestTwoFactorSetupPresentation(t *testing.T) {
	s := &TwoFactorSetup{Secret: "JBSWY3DPEHPK3PXPAB", OTPAuthURL: "otpauth://totp/forge:alice?secret=JBSWY3DPEHPK3PXPAB&issuer=forge"}
	if got := s.GroupedSecret(); got != "JBSW Y3DP EHPK 3PXP AB" {
		t.Errorf("GroupedSecret = %q", got)
	}
	if got := s.Account(); got != "forge:alice" {
		t.Errorf("Account = %q", got)
	}
	if (&TwoFactorSetup{OTPAuthURL: "https://x/y"}).Account() != "" {
		t.Error("Account of a non-otpauth URL")
	}
}

// TestProxyAnswersSaidForPeople: a proxy's 413 page names no limit, so the
// error quotes the documented one and the size sent; a 404 of an endpoint
// every deployment has says the base URL is not the API root, and a 404 of
// a repository does not.
func TestProxyAnswersSaidForPeople(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.Method == http.MethodPost {
			w.WriteHeader(http.StatusRequestEntityTooLarge)
			w.Write([]byte("<html><body>413 Request Entity Too Large</body></html>"))
			return
		}
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte("<html><body>404 Not Found</body></html>"))
	}))
	defer srv.Close()
	c, _ := newTestClient(t, srv)
	ctx := context.Background()
	_, err := c.Post(ctx, "/repos/alice/app/issues", map[string]string{"body": strings.Repeat("x", 3<<20)}, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "HTTP 413: the request body is larger than the service takes; this one was 3.0 MiB (POST ") || strings.Contains(err.Error(), "HTML") {
		t.Errorf("413: %v", err)
	}
	const hint = "the base URL must be the service's API root"
	if _, err := c.Account.Me(ctx); err == nil || !strings.Contains(err.Error(), hint) {
		t.Errorf("404 of /me: %v", err)
	}
	if _, err := c.Get(ctx, "/repos/alice/app", nil); err == nil || strings.Contains(err.Error(), hint) {
		t.Errorf("404 of a repository: %v", err)
	}
}

// TestRetryAfterSaidOnce: a message that says when to try again is not
// followed by the Retry-After wait a second time.
func TestRetryAfterSaidOnce(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "900")
		w.WriteHeader(http.StatusTooManyRequests)
		w.Write([]byte(`{"error":"too many failed logins for \"bob\": try again in 15 minutes"}`))
	}))
	defer srv.Close()
	c, _ := newTestClient(t, srv)
	_, err := c.Account.Login(context.Background(), "bob", "nope")
	if err == nil || !strings.HasSuffix(err.Error(), "try again in 15 minutes (POST "+srv.URL+"/api/v2/auth/login)") {
		t.Fatalf("err = %v", err)
	}
}
