package ratelimit

import (
	"testing"
	"time"
)

// Below one request a second the burst is one request and the wait is
// whole periods; buckets refill with the clock, never past the burst.
func TestAllowSlowRate(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	l := New(0.5, func() time.Time { return now })
	if ok, _ := l.Allow("a"); !ok {
		t.Fatal("first request refused")
	}
	if ok, wait := l.Allow("a"); ok || wait != 2*time.Second {
		t.Fatalf("second request: %v, wait %v; want refused, 2s", ok, wait)
	}
	now = now.Add(time.Hour)
	if ok, _ := l.Allow("a"); !ok {
		t.Fatal("refused after an hour")
	}
	if ok, _ := l.Allow("a"); ok {
		t.Fatal("an idle hour filled the bucket past its burst")
	}
}
