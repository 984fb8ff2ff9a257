package rest

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/refserver/store"
)

// TestLockout: threshold failures within the window lock a key for the
// duration, without running the check; a success clears the count;
// failures further apart than the window do not add up; tries arriving
// together are counted before they are checked, so no more than the
// threshold are ever checked.
func TestLockout(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	l := newLockout(3, 10*time.Minute, 15*time.Minute)
	fail := func(at time.Time) time.Duration {
		wait, _ := l.attempt("alice", at, func() bool { return false })
		return wait
	}
	fail(t0)
	fail(t0)
	if _, ok := l.attempt("alice", t0, func() bool { return true }); !ok {
		t.Fatal("a right password after two failures was refused")
	}
	for range 3 {
		if wait := fail(t0); wait != 0 {
			t.Fatalf("locked after a success and fewer than 3 failures: %s", wait)
		}
	}
	checked := false
	if wait, _ := l.attempt("alice", t0.Add(time.Minute), func() bool { checked = true; return true }); wait != 14*time.Minute || checked {
		t.Fatalf("locked: wait %s, checked %v; want 14m without a check", wait, checked)
	}
	if wait, ok := l.attempt("bob", t0, func() bool { return true }); wait != 0 || !ok {
		t.Fatal("another key was locked too")
	}
	if _, ok := l.attempt("alice", t0.Add(15*time.Minute), func() bool { return true }); !ok {
		t.Fatal("still locked when the duration had passed")
	}
	for i := range 6 {
		if wait := fail(t0.Add(time.Hour + time.Duration(i)*11*time.Minute)); wait != 0 {
			t.Fatalf("failures 11 minutes apart locked the key: %s", wait)
		}
	}
	l = newLockout(3, 10*time.Minute, 15*time.Minute)
	var dones []func(bool)
	for range 5 {
		if wait, done := l.reserve("carol", t0); wait == 0 {
			dones = append(dones, done)
		}
	}
	if len(dones) != 3 {
		t.Errorf("%d of 5 tries at once were let through to the check, want 3", len(dones))
	}
}

// TestLoginLockout: over HTTP, the fifth wrong password locks the login
// for every password, the right one too, with 429 and Retry-After.
func TestLoginLockout(t *testing.T) {
	t.Parallel()
	ta := newTestAPI(t)
	hash, err := store.HashPassword("erin-password", 4)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ta.st.CreateUser(store.NewUser{Login: "erin", Email: "erin@example.com", Role: store.RoleUser, PasswordHash: hash, Activated: true}); err != nil {
		t.Fatal(err)
	}
	login := func(pw string) answer {
		return ta.do(t, "", "POST", "/auth/login", `{"username":"erin","password":"`+pw+`"}`)
	}
	if a := login("erin-password"); a.status != http.StatusOK {
		t.Fatalf("login: %d %s", a.status, a.body)
	}
	for range 5 {
		if a := login("wrong"); a.status != http.StatusUnauthorized {
			t.Fatalf("a wrong password: %d %s", a.status, a.body)
		}
	}
	a := login("erin-password")
	if a.status != http.StatusTooManyRequests || a.header.Get("Retry-After") != "900" {
		t.Fatalf("the right password once locked: %d Retry-After %q %s", a.status, a.header.Get("Retry-After"), a.body)
	}
	if msg := a.errorText(t); !strings.HasPrefix(msg, `too many failed logins for "erin": try again in 15 minutes`) {
		t.Errorf("%q", msg)
	}
}
