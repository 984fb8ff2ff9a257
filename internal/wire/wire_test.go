package wire

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/httpwait"
)

// bomb is gzip of n zero bytes: n/1000 bytes on the wire.
func bomb(t testing.TB, n int) []byte {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zero := make([]byte, 1<<20)
	for ; n > 0; n -= len(zero) {
		if _, err := zw.Write(zero[:min(n, len(zero))]); err != nil {
			t.Fatal(err)
		}
	}
	zw.Close()
	return b.Bytes()
}

func serveGzip(body []byte) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
}

// TestDecodedIsBounded, at a bound of 2 MiB (MaxDecoded's 64 MiB, at
// forge's scale, is cmd/forge's TestGzipBombIsBounded).
func TestDecodedIsBounded(t *testing.T) {
	const max = 2 << 20
	srv := serveGzip(bomb(t, 4*max))
	defer srv.Close()
	tr := New(0)
	tr.max = max
	resp, err := (&http.Client{Transport: tr}).Get(srv.URL + "/v2/x/tags/list")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	var tl *TooLargeError
	if !errors.As(err, &tl) || n != max {
		t.Fatalf("read %d bytes, err %v; want %d and a *TooLargeError", n, err, max)
	}
	if !strings.Contains(err.Error(), "GET "+srv.URL+"/v2/x/tags/list: the compressed answer decodes to more than 2 MiB") {
		t.Errorf("error: %v", err)
	}
}

func TestDecodesUpToTheBound(t *testing.T) {
	want := []byte(`{"tags":["v1","v2"]}`)
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(want)
	zw.Close()
	srv := serveGzip(b.Bytes())
	defer srv.Close()
	resp, err := (&http.Client{Transport: New(time.Minute)}).Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || !bytes.Equal(got, want) || resp.Header.Get("Content-Encoding") != "" || !resp.Uncompressed {
		t.Fatalf("got %q, %v, headers %v", got, err, resp.Header)
	}
}

// A request naming its own encoding gets the bytes as sent.
func TestOwnEncodingIsLeftAlone(t *testing.T) {
	body := bomb(t, 1<<20)
	srv := serveGzip(body)
	defer srv.Close()
	req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	req.Header.Set("Accept-Encoding", "identity")
	resp, err := New(0).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Equal(got, body) || req.Header.Get("Accept-Encoding") != "identity" {
		t.Fatalf("got %d bytes of %d", len(got), len(body))
	}
}

// stalling sends headers and part of a body, then nothing until the test
// ends.
func stalling(t *testing.T) *httptest.Server {
	hang := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"tags":[`))
		w.(http.Flusher).Flush()
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(hang); srv.Close() })
	return srv
}

func TestSilentBodyEnds(t *testing.T) {
	srv := stalling(t)
	resp, err := (&http.Client{Transport: New(50 * time.Millisecond)}).Get(srv.URL + "/logs")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	var we *httpwait.Error
	if !errors.As(err, &we) || string(got) != `{"tags":[` || !httpwait.IsTimeout(err) {
		t.Fatalf("read %q, err %v; want the part sent and an *httpwait.Error", got, err)
	}
	if want := "GET " + srv.URL + "/logs: no answer within 50ms"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q, want %q", err, want)
	}
}

// Each byte that arrives starts the wait anew: a body that keeps coming
// takes as long as it takes, longer than the wait in all.
func TestProgressResetsTheWait(t *testing.T) {
	const wait = 2 * time.Second
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for range 25 {
			w.Write([]byte("x"))
			w.(http.Flusher).Flush()
			time.Sleep(wait / 20) // 2.5 waits in all, a twentieth apart
		}
	}))
	defer srv.Close()
	resp, err := (&http.Client{Transport: New(wait)}).Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || len(got) != 25 {
		t.Fatalf("read %d bytes, err %v", len(got), err)
	}
}

// Time the reader takes between reads is not the service's silence.
func TestSlowReaderIsNotSilence(t *testing.T) {
	const wait = 50 * time.Millisecond
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("abc"))
	}))
	defer srv.Close()
	resp, err := (&http.Client{Transport: New(wait)}).Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	one := make([]byte, 1)
	var got []byte
	for {
		n, err := resp.Body.Read(one)
		got = append(got, one[:n]...)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("after %q: %v", got, err)
		}
		time.Sleep(3 * wait) // the reader is busy; the answer has all arrived
	}
	if string(got) != "abc" {
		t.Fatalf("got %q", got)
	}
}
