package client

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

func TestSendReturnsAnyStatusWithBody(t *testing.T) {
	t.Parallel()
	var got *http.Request
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Clone(context.Background())
		body, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnprocessableEntity)
		w.Write([]byte(`{"error":"title is required"}`))
	}))
	defer srv.Close()
	c, _ := newTestClient(t, srv)
	resp, err := c.Send(context.Background(), RawRequest{
		Method: http.MethodPost, Path: "repos/alice/demo/issues?x=1",
		Header: http.Header{"X-Custom": {"42"}, "Accept": {"text/plain"}},
		Body:   []byte(`{"body":"b"}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 422 || string(b) != `{"error":"title is required"}` {
		t.Fatalf("status %d body %q", resp.StatusCode, b)
	}
	if got.URL.Path != "/api/v2/repos/alice/demo/issues" || got.URL.RawQuery != "x=1" || string(body) != `{"body":"b"}` {
		t.Errorf("request %s %s?%s body %q", got.Method, got.URL.Path, got.URL.RawQuery, body)
	}
	h := got.Header
	if h.Get("Authorization") != "token tok_secret_123456" || h.Get("X-Custom") != "42" || h.Get("Accept") != "text/plain" ||
		h.Get("Content-Type") != "application/json" || h.Get("User-Agent") == "" {
		t.Errorf("headers %v", h)
	}
}

func TestSendKeepsTokenAndHandMadeAuthorizationAtHome(t *testing.T) {
	t.Parallel()
	var auth atomic.Value
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth.Store(r.Header.Get("Authorization") + "|")
	}))
	defer elsewhere.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	c, _ := newTestClient(t, srv)
	for _, h := range []http.Header{nil, {"Authorization": {"token mine"}}} {
		resp, err := c.Send(context.Background(), RawRequest{Path: elsewhere.URL + "/x", Header: h})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if a := auth.Load(); a != "|" {
			t.Errorf("another origin got Authorization %q", a)
		}
	}
}

func TestSendRetriesGETOnDroppedConnectionOnly(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.(*net.TCPConn).SetLinger(0)
			conn.Close()
			return
		}
		w.WriteHeader(http.StatusServiceUnavailable) // a status is never retried by Send
	}))
	defer srv.Close()
	c, waits := newTestClient(t, srv)
	resp, err := c.Send(context.Background(), RawRequest{Path: "me"})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 503 || n.Load() != 2 || len(*waits) != 1 {
		t.Fatalf("status %d after %d requests, %d waits", resp.StatusCode, n.Load(), len(*waits))
	}
	n.Store(0)
	if _, err := c.Send(context.Background(), RawRequest{Method: http.MethodPost, Path: "me"}); err == nil || n.Load() != 1 {
		t.Fatalf("POST: err %v after %d requests", err, n.Load())
	}
}

func TestNextPage(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", `</api/v2/items?page=2>; rel="next", </api/v2/items?page=9>; rel="last"`)
	}))
	defer srv.Close()
	c, _ := newTestClient(t, srv)
	resp, err := c.Send(context.Background(), RawRequest{Path: "items"})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := NextPage(resp); got != srv.URL+"/api/v2/items?page=2" {
		t.Fatalf("next %q", got)
	}
}
