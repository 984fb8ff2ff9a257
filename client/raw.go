package client

import (
	"context"
	"net/http"
)

// RawRequest is a request built by hand, for `forge api`: any method,
// path, headers and body.
type RawRequest struct {
	Method string
	// Path is relative to the base URL ("repos/alice/demo", with an
	// optional query) or an absolute URL, such as a next-page link.
	Path string
	// Header replaces the client's defaults of the same name (Accept,
	// User-Agent, Content-Type, even Authorization). Authorization, set
	// here or by the client, goes only to the configured origin.
	Header http.Header
	// Body is sent as is; nil sends none.
	Body []byte
}

// Send sends a hand-built request with the client's token, User-Agent and
// timeout (which covers waiting for the headers, not reading the body) and
// returns the answer whatever its status, with the body still open: the
// caller reads and closes it. Unlike Do it decodes nothing and turns no
// status into an error, so the caller sees exactly what the server said.
// Idempotent methods are retried on connection failures, as Do does; a
// status is never retried, because the caller asked for whatever comes.
func (c *Client) Send(ctx context.Context, r RawRequest) (*http.Response, error) {
	u, err := c.resolve(r.Path)
	if err != nil {
		return nil, err
	}
	method := r.Method
	if method == "" {
		method = http.MethodGet
	}
	for attempt := 0; ; attempt++ {
		resp, err := c.streamAttempt(ctx, method, u, r.Body, r.Header, true)
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

// NextPage is the absolute URL of the page after resp (its Link header's
// rel="next"), or "" on the last page.
func NextPage(resp *http.Response) string {
	var base = resp.Request.URL
	return nextLink(resp.Header, base)
}
