package rest

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/forgehq/forge/refserver/store"
)

// lockout counts failures per key (a login name, an account's 2FA codes):
// threshold of them within window lock the key for duration. Counts live
// in memory.
type lockout struct {
	threshold        int
	window, duration time.Duration

	mu sync.Mutex
	m  map[string]*failures
}

// failures tracks the failures of one key.
type failures struct {
	count  int
	first  time.Time
	locked time.Time // locked until then
}

func newLockout(threshold int, window, duration time.Duration) *lockout {
	return &lockout{threshold: threshold, window: window, duration: duration, m: map[string]*failures{}}
}

// lockedFor reports how long key stays locked out.
func (l *lockout) lockedFor(key string, now time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lockedForLocked(key, now)
}

func (l *lockout) lockedForLocked(key string, now time.Time) time.Duration {
	f := l.m[key]
	if f == nil || !now.Before(f.locked) {
		return 0
	}
	return f.locked.Sub(now)
}

func (l *lockout) fail(key string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.failLocked(key, now)
}

func (l *lockout) failLocked(key string, now time.Time) {
	f := l.m[key]
	if f == nil || now.Sub(f.first) > l.window {
		if len(l.m) >= maxTracked {
			l.forgetStale(now)
		}
		f = &failures{first: now}
		l.m[key] = f
	}
	f.count++
	if f.count >= l.threshold {
		f.locked = now.Add(l.duration)
		f.count, f.first = 0, now
	}
}

// attempt checks one try of key under the lock, so that concurrent tries
// cannot all slip in before the count locks the key: it answers how long
// key is locked (and does not call try), or calls try and counts a failure
// when try reports one. A success resets the count.
func (l *lockout) attempt(key string, now time.Time, try func() bool) (wait time.Duration, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if wait := l.lockedForLocked(key, now); wait > 0 {
		return wait, false
	}
	if !try() {
		l.failLocked(key, now)
		return 0, false
	}
	delete(l.m, key)
	return 0, true
}

// maxTracked bounds the keys with failures kept in memory: past it,
// entries whose window and lock have both passed are dropped, so a flood
// of made-up names cannot grow the map without end.
const maxTracked = 10000

func (l *lockout) forgetStale(now time.Time) {
	for key, f := range l.m {
		if now.Sub(f.first) > l.window && !now.Before(f.locked) {
			delete(l.m, key)
		}
	}
}

func (l *lockout) clear(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.m, key)
}

// retryLater is a 429 whose answer carries Retry-After.
type retryLater struct {
	wait time.Duration
	err  *store.Error
}

func (e *retryLater) Error() string { return e.err.Msg }
func (e *retryLater) Unwrap() error { return e.err }

// errTooMany is a 429 "try again in N minutes" with Retry-After set to
// wait, rounded up to whole seconds.
func errTooMany(wait time.Duration, what string) error {
	mins := max(1, int(wait.Round(time.Minute)/time.Minute))
	return &retryLater{wait: wait, err: &store.Error{Status: http.StatusTooManyRequests,
		Msg: fmt.Sprintf("%s: try again in %s", what, minutes(mins))}}
}

func minutes(n int) string {
	if n == 1 {
		return "1 minute"
	}
	return fmt.Sprintf("%d minutes", n)
}

// setRetryAfter sets Retry-After when err is a retryLater.
func setRetryAfter(w http.ResponseWriter, err error) {
	var rl *retryLater
	if errors.As(err, &rl) {
		w.Header().Set("Retry-After", strconv.Itoa(int(rl.wait.Seconds()+0.999)))
	}
}
