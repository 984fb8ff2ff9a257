package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/forgehq/forge/internal/httpwait"
	"github.com/forgehq/forge/internal/origin"
	"github.com/forgehq/forge/internal/wire"
)

// maxBody is the largest response body the client reads into memory; a
// JSON answer beyond it is refused rather than exhausting memory.
const maxBody = 64 << 20

// maxErrorBody is how much of an error answer is kept.
const maxErrorBody = 64 << 10

// Response is a successful answer whose body has been read.
type Response struct {
	StatusCode int
	Header     http.Header
	// Body is the whole response body.
	Body []byte
	// NextURL is the absolute URL of the next page (Link: rel="next"), or
	// "" on the last page.
	NextURL string
	// LastURL is the absolute URL of the last page (Link: rel="last"),
	// when the server sends one.
	LastURL string
}

// Get, Post, Patch, Put and Delete send a request to path (relative to the
// base URL, like "/repos/alice/demo", optionally with a query; or an
// absolute URL) with in as the JSON body (nil for none), and decode the
// JSON answer into out (nil to discard it; a *[]byte or *json.RawMessage
// receives the raw body). They are what the typed services use, and what a
// command reaches for when an endpoint has no typed method yet.
func (c *Client) Get(ctx context.Context, path string, out any) (*Response, error) {
	return c.Do(ctx, http.MethodGet, path, nil, out)
}

// Post sends a POST; see Get.
func (c *Client) Post(ctx context.Context, path string, in, out any) (*Response, error) {
	return c.Do(ctx, http.MethodPost, path, in, out)
}

// Patch sends a PATCH; see Get.
func (c *Client) Patch(ctx context.Context, path string, in, out any) (*Response, error) {
	return c.Do(ctx, http.MethodPatch, path, in, out)
}

// Put sends a PUT; see Get.
func (c *Client) Put(ctx context.Context, path string, in, out any) (*Response, error) {
	return c.Do(ctx, http.MethodPut, path, in, out)
}

// Delete sends a DELETE; see Get.
func (c *Client) Delete(ctx context.Context, path string, out any) (*Response, error) {
	return c.Do(ctx, http.MethodDelete, path, nil, out)
}

// Do sends one request with the client's authentication, retries and
// timeout, and decodes the answer into out; see Get.
func (c *Client) Do(ctx context.Context, method, path string, in, out any) (*Response, error) {
	return c.do(ctx, method, path, in, out, false)
}

// do is Do; anonymous requests (the login) carry no token.
func (c *Client) do(ctx context.Context, method, path string, in, out any, anonymous bool) (*Response, error) {
	resp, err := c.send(ctx, method, path, in, anonymous)
	if err != nil {
		return nil, err
	}
	if err := decodeInto(resp.Body, out); err != nil {
		return resp, &decodeError{method: method, url: c.redact(path), err: err}
	}
	return resp, nil
}

// Stream sends a GET and returns the answer with its body still open, for
// large or slow bodies such as job logs; the caller closes it. The timeout
// covers waiting for the headers only. Failures before the headers are
// retried like any GET.
func (c *Client) Stream(ctx context.Context, path string) (*http.Response, error) {
	return c.stream(ctx, path, nil)
}

// stream is Stream with header's values replacing the defaults (the
// raw read's Accept).
func (c *Client) stream(ctx context.Context, path string, header http.Header) (*http.Response, error) {
	u, err := c.resolve(path)
	if err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		resp, err := c.streamAttempt(ctx, http.MethodGet, u, nil, header, false)
		if err == nil {
			return resp, nil
		}
		wait, ok := c.retryable(ctx, http.MethodGet, attempt, err)
		if !ok {
			return nil, err
		}
		c.noteWait(wait, err)
		if err := c.sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// streamAttempt sends one request and returns the answer with its body
// open; the timeout covers waiting for the headers only. header's values
// replace the client's defaults (Accept: */*). A non-2xx answer is an
// *Error unless anyStatus is set.
func (c *Client) streamAttempt(ctx context.Context, method string, u *url.URL, payload []byte, header http.Header, anyStatus bool) (*http.Response, error) {
	actx, cancel := context.WithCancel(ctx)
	var timer *time.Timer
	if c.timeout > 0 {
		timer = time.AfterFunc(c.timeout, cancel)
	}
	req, tokenSent, err := c.newRequest(actx, method, u, payload, false)
	if err != nil {
		cancel()
		return nil, err
	}
	req.Header.Set("Accept", "*/*")
	for k, v := range header {
		req.Header[http.CanonicalHeaderKey(k)] = v
	}
	if !c.sameOrigin(u) {
		// A header the caller set by hand goes only where the token may go.
		req.Header.Del("Authorization")
	}
	resp, err := c.http.Do(req)
	if timer != nil && !timer.Stop() && ctx.Err() == nil {
		// The timer fired: whatever came back is cut off.
		if err == nil {
			resp.Body.Close()
		}
		cancel()
		return nil, c.timeoutError(method, u)
	}
	if err != nil {
		cancel()
		return nil, c.networkError(ctx, method, u, err)
	}
	if resp.StatusCode/100 != 2 && !anyStatus {
		defer cancel()
		defer drain(resp.Body)
		body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		return nil, c.apiError(method, u, resp, body, tokenSent, len(payload))
	}
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}

type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// send runs the attempts of one request and returns the successful answer
// or the last error.
func (c *Client) send(ctx context.Context, method, path string, in any, anonymous bool) (*Response, error) {
	u, err := c.resolve(path)
	if err != nil {
		return nil, err
	}
	var payload []byte
	if in != nil {
		if payload, err = json.Marshal(in); err != nil {
			return nil, fmt.Errorf("encoding the request body: %w", err)
		}
	}
	for attempt := 0; ; attempt++ {
		resp, err := c.attempt(ctx, method, u, payload, anonymous)
		if err == nil {
			return resp, nil
		}
		wait, ok := c.retryable(ctx, method, attempt, err)
		if !ok {
			return nil, err
		}
		c.noteWait(wait, err)
		if err := c.sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// noteWait tells the user about a wait long enough to notice.
func (c *Client) noteWait(wait time.Duration, err error) {
	if wait >= time.Second {
		c.say(fmt.Sprintf("%v; retrying in %s", err, wait.Round(100*time.Millisecond)))
	}
}

// attempt sends the request once and reads the whole answer within the
// timeout.
func (c *Client) attempt(ctx context.Context, method string, u *url.URL, payload []byte, anonymous bool) (*Response, error) {
	actx := ctx
	if c.timeout > 0 {
		var cancel context.CancelFunc
		actx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	req, tokenSent, err := c.newRequest(actx, method, u, payload, anonymous)
	if err != nil {
		return nil, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, c.transportError(ctx, actx, method, u, err)
	}
	defer drain(resp.Body)
	limit := int64(maxBody)
	if resp.StatusCode/100 != 2 {
		limit = maxErrorBody
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, c.transportError(ctx, actx, method, u, err)
	}
	if resp.StatusCode/100 != 2 {
		return nil, c.apiError(method, u, resp, body, tokenSent, len(payload))
	}
	if int64(len(body)) > limit {
		return nil, fmt.Errorf("%s %s: the answer is larger than %d MiB", method, u.Redacted(), maxBody>>20)
	}
	return &Response{
		StatusCode: resp.StatusCode,
		Header:     resp.Header,
		Body:       body,
		NextURL:    nextLink(resp.Header, resp.Request.URL),
		LastURL:    linkRel(resp.Header, resp.Request.URL, "last"),
	}, nil
}

// newRequest builds a request; the token goes only to the configured
// origin.
func (c *Client) newRequest(ctx context.Context, method string, u *url.URL, payload []byte, anonymous bool) (*http.Request, bool, error) {
	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), body)
	if err != nil {
		return nil, false, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	tokenSent := false
	if !anonymous && c.token != "" && c.sameOrigin(u) {
		req.Header.Set("Authorization", "token "+c.token)
		tokenSent = true
	}
	return req, tokenSent, nil
}

// resolve turns a path relative to the base URL ("/me", "repos?x=1") or
// an absolute URL (a next-page link) into a URL.
func (c *Client) resolve(path string) (*url.URL, error) {
	if strings.HasPrefix(path, "http://") || strings.HasPrefix(path, "https://") {
		return url.Parse(path)
	}
	u, err := url.Parse(c.base.String() + "/" + strings.TrimLeft(path, "/"))
	if err != nil {
		return nil, fmt.Errorf("bad request path %q: %w", path, err)
	}
	return u, nil
}

func (c *Client) redact(path string) string {
	u, err := c.resolve(path)
	if err != nil {
		return path
	}
	return u.Redacted()
}

func (c *Client) apiError(method string, u *url.URL, resp *http.Response, body []byte, tokenSent bool, sent int) *Error {
	if len(body) > maxErrorBody {
		body = body[:maxErrorBody]
	}
	return &Error{
		StatusCode:  resp.StatusCode,
		Message:     errorMessage(body),
		Method:      method,
		URL:         u.Redacted(),
		RetryAfter:  retryAfter(resp.Header, time.Now()),
		Body:        body,
		contentType: resp.Header.Get("Content-Type"),
		tokenSent:   tokenSent,
		tokenFix:    c.tokenFix,
		sent:        sent,
		atRoot:      c.atRoot(u),
	}
}

// atRoot reports whether u is one of the endpoints every deployment of the
// service has, whatever its data (GET /me, POST /auth/login, ...): a 404
// there means the base URL is not the API root.
func (c *Client) atRoot(u *url.URL) bool {
	if u.Scheme != c.base.Scheme || u.Host != c.base.Host {
		return false
	}
	switch strings.TrimPrefix(u.Path, c.base.Path) {
	case "/me", "/me/state", "/me/keys", "/auth/login", "/repos":
		return true
	}
	return false
}

// transportError classifies a failure without an HTTP answer: the caller
// gave up (context), the attempt timed out, or the connection failed.
func (c *Client) transportError(ctx, actx context.Context, method string, u *url.URL, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(actx.Err(), context.DeadlineExceeded) {
		return c.timeoutError(method, u)
	}
	return c.networkError(ctx, method, u, err)
}

func (c *Client) timeoutError(method string, u *url.URL) error {
	return &TimeoutError{Method: method, URL: u.Redacted(), Timeout: c.timeout}
}

func (c *Client) networkError(ctx context.Context, method string, u *url.URL, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var re *origin.RedirectError
	if errors.As(err, &re) {
		return re // an answer, refused: not "cannot reach"
	}
	var big *wire.TooLargeError
	if errors.As(err, &big) {
		return big // an answer too large: not "cannot reach", nor worth asking again
	}
	if httpwait.IsTimeout(err) {
		return c.timeoutError(method, u) // the transport's wait for headers
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return &NetworkError{Method: method, URL: u.Redacted(), Err: err}
}

// decodeInto decodes a JSON body into out; see Get.
func decodeInto(body []byte, out any) error {
	switch o := out.(type) {
	case nil:
		return nil
	case *[]byte:
		*o = body
		return nil
	case *json.RawMessage:
		*o = body
		return nil
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil // an empty 200 or 201 leaves out as it was
	}
	return decode(body, out)
}
