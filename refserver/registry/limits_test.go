package registry_test

import (
	"bufio"
	"encoding/base64"
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

	"github.com/forgehq/forge/refserver/registry"
)

// limitedRegistry is a registry with small bounds, checking logins with
// f's REST API.
func limitedRegistry(t *testing.T, f *fixture, opts registry.Options) *fixture {
	t.Helper()
	opts.BaseURL = func() string { return f.url + "/api/v2" }
	return serveRegistry(t, opts)
}

// serveRegistry serves a registry of its own on 127.0.0.1.
func serveRegistry(t *testing.T, opts registry.Options) *fixture {
	t.Helper()
	reg, err := registry.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	reg.Mount(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(func() { srv.Close(); reg.Close() })
	return &fixture{reg: reg, url: srv.URL, host: strings.TrimPrefix(srv.URL, "http://")}
}

// A user holds at most MaxUploads uploads in progress; finishing one makes
// room, and other users are not held back.
func TestUploadSessionsBounded(t *testing.T) {
	t.Parallel()
	f := limitedRegistry(t, newFixture(t, ""), registry.Options{MaxUploads: 3})
	var locs []string
	for range 3 {
		locs = append(locs, f.call(t, "alice", "POST", "/v2/alice/app/blobs/uploads/", nil, nil).want(t, "POST", http.StatusAccepted).header.Get("Location"))
	}
	r := f.call(t, "alice", "POST", "/v2/alice/app/blobs/uploads/", nil, nil).want(t, "fourth POST", http.StatusTooManyRequests)
	if !strings.Contains(string(r.body), "TOOMANYREQUESTS") || !strings.Contains(string(r.body), "finish or cancel one") {
		t.Errorf("fourth upload: %s", r.body)
	}
	f.call(t, "bob", "POST", "/v2/bob/app/blobs/uploads/", nil, nil).want(t, "bob's POST", http.StatusAccepted)
	f.call(t, "alice", "DELETE", locs[0], nil, nil).want(t, "cancel", http.StatusNoContent)
	f.call(t, "alice", "POST", "/v2/alice/app/blobs/uploads/", nil, nil).want(t, "POST after a cancel", http.StatusAccepted)
}

// A burst of POSTs from one user starts no more uploads than the bound:
// counting the user's uploads and adding the new one are one step.
func TestUploadSessionsBoundedUnderABurst(t *testing.T) {
	t.Parallel()
	f := limitedRegistry(t, newFixture(t, ""), registry.Options{MaxUploads: 3})
	// Each upload's file is held at its creation until a fourth POST is
	// creating one too (or 2 s pass): a count made apart from the adding
	// lets the fourth through.
	var creating atomic.Int64
	fourth := make(chan struct{})
	f.reg.FailWrites(func(op, path string) error {
		if op == "create" {
			if creating.Add(1) == 4 {
				close(fourth)
			}
			select {
			case <-fourth:
			case <-time.After(2 * time.Second):
			}
		}
		return nil
	})
	var accepted atomic.Int64
	var wg sync.WaitGroup
	for range 40 {
		wg.Go(func() {
			req, _ := http.NewRequest(http.MethodPost, f.url+"/v2/alice/app/blobs/uploads/", nil)
			req.Header.Set("Authorization", "Basic "+basic("alice"))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return
			}
			resp.Body.Close()
			if resp.StatusCode == http.StatusAccepted {
				accepted.Add(1)
			}
		})
	}
	wg.Wait()
	if n := accepted.Load(); n != 3 {
		t.Fatalf("a burst of 40 POSTs started %d uploads, want the bound, 3", n)
	}
}

// A chunk trickling in slower than ChunkGrace and ChunkRate allow is cut
// off with 400; the upload keeps what arrived, to resume from.
func TestSlowChunkCutOff(t *testing.T) {
	t.Parallel()
	f := limitedRegistry(t, newFixture(t, ""), registry.Options{ChunkGrace: 200 * time.Millisecond, ChunkRate: 1024})
	loc := f.call(t, "alice", "POST", "/v2/alice/app/blobs/uploads/", nil, nil).want(t, "POST", http.StatusAccepted).header.Get("Location")
	conn, err := net.Dial("tcp", f.host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// Promise 100,000 bytes and send one; the answer must come without the rest.
	fmt.Fprintf(conn, "PATCH %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Basic %s\r\nContent-Type: application/octet-stream\r\nContent-Length: 100000\r\n\r\nx",
		loc, f.host, basic("alice"))
	conn.SetReadDeadline(time.Now().Add(2 * time.Minute))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a trickling chunk: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "slower than this registry accepts") {
		t.Fatalf("trickling chunk: %d %s", resp.StatusCode, body)
	}
	if r := f.call(t, "alice", "GET", loc, nil, nil).want(t, "GET upload", http.StatusNoContent); r.header.Get("Range") != "0-0" {
		t.Errorf("the upload holds %q after the cut-off chunk, want the one byte that arrived", r.header.Get("Range"))
	}
}

// basic is user's HTTP basic credentials, encoded.
func basic(user string) string {
	return base64.StdEncoding.EncodeToString([]byte(user + ":" + testUsers[user].password))
}

// A token's signature is checked once, not on every request that carries
// it; a token differing in any byte is checked (and refused) on its own.
func TestTokenCheckedOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	_, tok := f.getToken(t, "alice", testUsers["alice"].password, "repository:alice/app:pull,push")
	before := f.reg.TokenChecks()
	for range 10 {
		if st := f.withToken(t, tok.Token, "GET", "/v2/alice/app/tags/list"); st != http.StatusNotFound {
			t.Fatalf("GET tags/list with the token: %d", st)
		}
	}
	if n := f.reg.TokenChecks() - before; n != 1 {
		t.Errorf("%d signature checks for 10 requests with one token, want 1", n)
	}
	forged := tok.Token[:len(tok.Token)-2] + "AA"
	if forged == tok.Token {
		forged = tok.Token[:len(tok.Token)-2] + "BB"
	}
	if st := f.withToken(t, forged, "GET", "/v2/alice/app/tags/list"); st != http.StatusUnauthorized {
		t.Errorf("a token with its signature changed: %d", st)
	}
}

// A chunk whose client breaks off keeps the bytes that arrived: the
// upload's Range says where to resume, and the rest completes it.
func TestBrokenChunkKeptForResume(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	blob := randomBytes(t, 100000)
	loc := f.call(t, "alice", "POST", "/v2/alice/app/blobs/uploads/", nil, nil).want(t, "POST", http.StatusAccepted).header.Get("Location")
	conn, err := net.Dial("tcp", f.host)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "PATCH %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Basic %s\r\nContent-Type: application/octet-stream\r\nContent-Length: %d\r\n\r\n",
		loc, f.host, basic("alice"), len(blob))
	conn.Write(blob[:40000])
	conn.Close()
	// The server sees the break when it reads on: ask until the upload
	// moved (a GET waits while the PATCH holds the upload).
	var got string
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		got = f.call(t, "alice", "GET", loc, nil, nil).want(t, "GET upload", http.StatusNoContent).header.Get("Range")
		if got != "0-0" {
			break
		}
	}
	if got != "0-39999" {
		t.Fatalf("after a PATCH broken off at 40000 bytes the upload holds %q", got)
	}
	rest := map[string]string{"Content-Type": "application/octet-stream", "Content-Range": "40000-99999"}
	f.call(t, "alice", "PATCH", loc, rest, blob[40000:]).want(t, "the rest", http.StatusAccepted)
	f.call(t, "alice", "PUT", loc+"?digest="+sha256Of(blob), nil, nil).want(t, "PUT", http.StatusCreated)
}
