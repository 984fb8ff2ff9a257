// Package ratelimit throttles the reference server's requests per token
// (`forge serve --rate-limit N`): a token bucket per credential, answered
// 429 with Retry-After when empty, so that clients and CI jobs can
// exercise a throttling service. It is off unless asked for.
package ratelimit

import (
	"crypto/sha256"
	"fmt"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// maxKeys bounds the buckets kept: past it, full buckets (idle callers)
// are dropped, so a flood of made-up tokens cannot grow memory without
// end.
const maxKeys = 10000

// Limiter allows each caller Rate requests per second, in bursts of up
// to Rate (at least one).
type Limiter struct {
	rate  float64
	burst float64
	now   func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

// New returns a limiter of rate requests per second per caller on the
// clock now (nil: time.Now).
func New(rate float64, now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{rate: rate, burst: math.Max(1, rate), now: now, buckets: map[string]*bucket{}}
}

// Allow takes one request from key's bucket; when it is empty it reports
// how long until the next request would be allowed.
func (l *Limiter) Allow(key string) (ok bool, retryAfter time.Duration) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[key]
	if b == nil {
		if len(l.buckets) >= maxKeys {
			l.forgetIdle(now)
		}
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[key] = b
	}
	b.refill(now, l.rate, l.burst)
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
}

func (b *bucket) refill(now time.Time, rate, burst float64) {
	if d := now.Sub(b.last); d > 0 {
		b.tokens = math.Min(burst, b.tokens+d.Seconds()*rate)
		b.last = now
	}
}

func (l *Limiter) forgetIdle(now time.Time) {
	for k, b := range l.buckets {
		if b.refill(now, l.rate, l.burst); b.tokens >= l.burst {
			delete(l.buckets, k)
		}
	}
}

// Handler throttles next. A request is counted against the credential it
// carries (Authorization or X-API-Key: REST and agent tokens, git's basic
// auth, registry tokens), one without against its client address. The
// refusal is 429, Retry-After in whole seconds (at least 1), and the JSON
// error shape.
func (l *Limiter) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ok, wait := l.Allow(callerKey(r))
		if ok {
			next.ServeHTTP(w, r)
			return
		}
		secs := max(1, int(math.Ceil(wait.Seconds())))
		body := fmt.Sprintf("{\n  \"error\": \"rate limit of %s requests per second exceeded: retry after %d s\"\n}\n",
			strconv.FormatFloat(l.rate, 'f', -1, 64), secs)
		h := w.Header()
		h.Set("Retry-After", strconv.Itoa(secs))
		h.Set("Content-Type", "application/json; charset=utf-8")
		h.Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(http.StatusTooManyRequests)
		w.Write([]byte(body))
	})
}

// callerKey names the bucket of r: a digest of its token (not kept in
// clear in memory) however it is sent, else its client address.
func callerKey(r *http.Request) string {
	cred := strings.TrimSpace(r.Header.Get("X-API-Key"))
	if _, pw, ok := r.BasicAuth(); ok {
		cred = pw
	} else if scheme, tok, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " "); ok {
		cred = strings.TrimSpace(tok)
	} else if scheme != "" {
		cred = scheme
	}
	if cred != "" {
		sum := sha256.Sum256([]byte(cred))
		return "cred:" + string(sum[:])
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return "addr:" + host
}
