// Package wire is the one HTTP transport under forge's three clients (the
// REST client, the agent client, the registry client): what every answer
// passes through, whoever asked, so the two bounds below hold for all of
// them and no caller can skip one.
//
//   - What is decoded is bounded. The transport asks for gzip itself and
//     decodes an answer to at most MaxDecoded bytes: a megabyte of gzip
//     that would inflate to gigabytes stops at the bound with a
//     *TooLargeError. (net/http's own transparent decoding has no bound,
//     and the limits callers put on bodies count what they read, which a
//     JSON decoder reading a whole stream does not have.) A request that
//     names its own Accept-Encoding, or a Range, gets the bytes as sent,
//     undecoded.
//   - Silence is bounded (internal/httpwait's rule, FORGE_HTTP_TIMEOUT):
//     the wait for an answer's headers, and then each wait for more of
//     its body. Every byte that arrives starts the wait anew, so a long
//     stream or a large download runs as long as it keeps coming; a body
//     that stops mid-way fails with an *httpwait.Error after the wait. Only
//     the time spent waiting on the network counts, not the time the
//     reader takes between reads.
package wire

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/forgehq/forge/internal/httpwait"
)

// MaxDecoded is the most a compressed answer is decoded to: the largest
// answer forge reads into memory (the REST client's bound on a body).
const MaxDecoded = 64 << 20

// TooLargeError is a compressed answer that decodes to more than
// MaxDecoded.
type TooLargeError struct {
	Method, URL string
	Max         int64 // the bound: MaxDecoded
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s %s: the compressed answer decodes to more than %d MiB, which forge does not read (a service's answers are far smaller; this one is broken or hostile)", e.Method, e.URL, e.Max>>20)
}

// Transport is the transport; see the package comment. Its zero value is
// not usable: use New.
type Transport struct {
	base *http.Transport
	wait time.Duration
	max  int64 // MaxDecoded; smaller in tests
}

// New returns a transport with its own connection pool that waits at most
// wait (0: without bound) for headers and for each part of a body.
func New(wait time.Duration) *Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 16
	t.ResponseHeaderTimeout = wait
	// Decoding is this package's, with its bound.
	t.DisableCompression = true
	return &Transport{base: t, wait: wait, max: MaxDecoded}
}

// Default is the transport of a client given none: one pool, the default
// wait (httpwait.Default). Made on first use, not at start-up.
// (A function rather than a sync.OnceValue variable, which would be built
// by an init() on every start of forge.)
func Default() *Transport {
	defaultOnce.Do(func() { defaultTransport = New(httpwait.Default) })
	return defaultTransport
}

var (
	defaultOnce      sync.Once
	defaultTransport *Transport
)

// CloseIdleConnections closes the pool's idle connections.
func (t *Transport) CloseIdleConnections() { t.base.CloseIdleConnections() }

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	gz := req.Header.Get("Accept-Encoding") == "" && req.Header.Get("Range") == "" && req.Method != http.MethodHead
	out := req
	if gz {
		out = req.Clone(req.Context()) // a RoundTripper leaves the request as it was
		out.Header.Set("Accept-Encoding", "gzip")
	}
	var cancel context.CancelCauseFunc
	if t.wait > 0 {
		var ctx context.Context
		ctx, cancel = context.WithCancelCause(req.Context())
		out = out.WithContext(ctx)
	}
	resp, err := t.base.RoundTrip(out)
	if err != nil {
		if cancel != nil {
			cancel(nil)
		}
		return nil, err
	}
	resp.Request = req
	what := req.Method + " " + req.URL.Redacted()
	if cancel != nil {
		resp.Body = watch(resp.Body, t.wait, cancel, what)
	}
	if gz && strings.EqualFold(resp.Header.Get("Content-Encoding"), "gzip") {
		resp.Body = &gunzip{raw: resp.Body, left: t.max, max: t.max, method: req.Method, url: req.URL.Redacted()}
		resp.Header.Del("Content-Encoding")
		resp.Header.Del("Content-Length")
		resp.ContentLength = -1
		resp.Uncompressed = true
	}
	return resp, nil
}

// watched is a body whose reads each wait at most wait for bytes.
type watched struct {
	rc     io.ReadCloser
	wait   time.Duration
	timer  *time.Timer
	fired  atomic.Bool
	cancel context.CancelCauseFunc
	what   string
}

// errSilent is the cause a silent body's read ends with (a type, not
// errors.New, so the package has no init work).
var errSilent error = silentError{}

type silentError struct{}

func (silentError) Error() string { return "the answer stopped arriving" }

func watch(rc io.ReadCloser, wait time.Duration, cancel context.CancelCauseFunc, what string) *watched {
	w := &watched{rc: rc, wait: wait, cancel: cancel, what: what}
	w.timer = time.AfterFunc(wait, func() {
		w.fired.Store(true)
		cancel(errSilent) // ends the read that waits
	})
	w.timer.Stop()
	return w
}

func (w *watched) Read(p []byte) (int, error) {
	w.timer.Reset(w.wait)
	n, err := w.rc.Read(p)
	w.timer.Stop()
	if err != nil && err != io.EOF && w.fired.Load() {
		err = &httpwait.Error{What: w.what, Wait: w.wait}
	}
	return n, err
}

func (w *watched) Close() error {
	w.timer.Stop()
	err := w.rc.Close()
	w.cancel(nil)
	return err
}

// gunzip decodes a gzip body, at most left bytes of it.
type gunzip struct {
	raw         io.ReadCloser
	zr          *gzip.Reader
	err         error
	left, max   int64
	method, url string
}

func (g *gunzip) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	if g.zr == nil {
		if g.zr, g.err = gzip.NewReader(g.raw); g.err != nil {
			return 0, g.err
		}
	}
	if int64(len(p)) > g.left+1 {
		p = p[:g.left+1]
	}
	n, err := g.zr.Read(p)
	if int64(n) > g.left {
		n, err = int(g.left), &TooLargeError{Method: g.method, URL: g.url, Max: g.max}
	}
	g.left -= int64(n)
	if err != nil {
		g.err = err
	}
	return n, err
}

func (g *gunzip) Close() error { return g.raw.Close() }
