package rest

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"
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

func (l *lockout) lockedForLocked(key string, now time.Time) time.Duration {
	f := l.m[key]
	if f == nil || !now.Before(f.locked) {
		return 0
	}
	return f.locked.Sub(now)
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

// reserve checks and counts one try of key in one step: it answers how
// long key is locked, or counts the try as a failure up front and returns
// done, to call with the try's outcome (a success resets the count). So
// however many tries arrive at once, at most threshold of them are checked
// before the key locks, and the check itself (a bcrypt comparison) runs
// outside the lock.
func (l *lockout) reserve(key string, now time.Time) (wait time.Duration, done func(ok bool)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if wait := l.lockedForLocked(key, now); wait > 0 {
		return wait, nil
	}
	l.failLocked(key, now)
	return 0, func(ok bool) {
		if ok {
			l.clear(key)
		}
	}
}

// attempt reserves a try of key and runs it: it answers how long key is
// locked (and does not call try), or whether try succeeded.
func (l *lockout) attempt(key string, now time.Time, try func() bool) (wait time.Duration, ok bool) {
	wait, done := l.reserve(key, now)
	if wait > 0 {
		return wait, false
	}
	ok = try()
	done(ok)
	return 0, ok
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
	err  *httpError
}

func (e *retryLater) Error() string { return e.err.msg }
func (e *retryLater) Unwrap() error { return e.err }

// errTooMany is a 429 "try again in N minutes" with Retry-After set to
// wait, rounded up to whole seconds.
func errTooMany(wait time.Duration, what string) error {
	mins := max(1, int(wait.Round(time.Minute)/time.Minute))
	return &retryLater{wait: wait, err: &httpError{status: http.StatusTooManyRequests,
		msg: fmt.Sprintf("%s: try again in %s", what, minutes(mins))}}
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
