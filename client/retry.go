package client

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// RetryPolicy says when and how long the client waits before trying an
// idempotent request again.
type RetryPolicy struct {
	// MaxRetries is how many times a request is tried again after the
	// first attempt; 0 turns retries off.
	MaxRetries int
	// BaseDelay is the first backoff; each retry doubles it, up to
	// MaxDelay. The wait is drawn from [d/2, d] (jitter), so many forge
	// processes hitting a recovering server do not retry in lockstep.
	BaseDelay time.Duration
	MaxDelay  time.Duration
	// MaxRetryAfter is the longest Retry-After the client honours by
	// waiting; a longer one ends the request with an *Error carrying
	// RetryAfter, so a CLI never hangs for minutes without saying why.
	MaxRetryAfter time.Duration
}

// DefaultRetryPolicy: three retries after 250ms, 500ms and 1s (each with
// jitter), Retry-After honoured up to 30s.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{MaxRetries: 3, BaseDelay: 250 * time.Millisecond, MaxDelay: 5 * time.Second, MaxRetryAfter: 30 * time.Second}
}

// idempotent lists the methods the client retries. DELETE is idempotent in
// HTTP's sense, but a retried DELETE after a lost answer turns a success
// into a confusing 404, so it is never retried, like POST, PATCH and PUT.
func idempotent(method string) bool {
	return method == http.MethodGet || method == http.MethodHead || method == http.MethodOptions
}

// retryable reports whether a failed attempt may be tried again, and how
// long to wait first. ctx is the caller's context: once it is done nothing
// is retried.
func (c *Client) retryable(ctx context.Context, method string, attempt int, err error) (time.Duration, bool) {
	p := c.retry
	if attempt >= p.MaxRetries || !idempotent(method) || ctx.Err() != nil {
		return 0, false
	}
	var apiErr *Error
	switch {
	case errors.As(err, &apiErr):
		switch apiErr.StatusCode {
		case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		default:
			return 0, false
		}
		if apiErr.RetryAfter > 0 {
			if apiErr.RetryAfter > p.MaxRetryAfter {
				return 0, false
			}
			return apiErr.RetryAfter, true
		}
	case isConnectionError(err):
	default:
		return 0, false
	}
	d := p.BaseDelay << attempt
	if d > p.MaxDelay || d <= 0 {
		d = p.MaxDelay
	}
	return d/2 + c.jitter(d/2), true
}

// isConnectionError reports an error of the connection itself — refused,
// reset, closed before or while the answer came — as opposed to a timeout,
// a cancelled context or a TLS certificate the client does not trust.
func isConnectionError(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var te *TimeoutError
	if errors.As(err, &te) {
		return false
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.ECONNABORTED) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	var op *net.OpError
	if errors.As(err, &op) && (op.Op == "dial" || op.Op == "read" || op.Op == "write") {
		return true
	}
	// net/http reports a connection the server closed mid-answer this way.
	return strings.Contains(err.Error(), "server closed idle connection") ||
		strings.Contains(err.Error(), "connection reset by peer")
}

// retryAfter is the wait an answer asks for: its Retry-After, else, when
// it says the rate limit is used up (GitHub's X-RateLimit-Remaining: 0,
// on a 403 or 429), the time until X-RateLimit-Reset (Unix seconds).
func retryAfter(h http.Header, now time.Time) time.Duration {
	if d := parseRetryAfter(h.Get("Retry-After"), now); d > 0 {
		return d
	}
	if strings.TrimSpace(h.Get("X-RateLimit-Remaining")) != "0" {
		return 0 // every GitHub answer sends a reset time: only a used-up limit waits for it
	}
	reset, err := strconv.ParseInt(strings.TrimSpace(h.Get("X-RateLimit-Reset")), 10, 64)
	if err != nil {
		return 0
	}
	if d := time.Unix(reset, 0).Sub(now); d > 0 {
		return max(d, time.Second)
	}
	return 0
}

// parseRetryAfter reads Retry-After as seconds or an HTTP date.
func parseRetryAfter(h string, now time.Time) time.Duration {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0
	}
	if secs, err := strconv.Atoi(h); err == nil {
		if secs < 0 {
			return 0
		}
		return time.Duration(secs) * time.Second
	}
	if t, err := http.ParseTime(h); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}
