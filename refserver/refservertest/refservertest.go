// Package refservertest is the one way tests start a reference server: on
// 127.0.0.1 with a free port, closed when the test ends, with the site
// admin's password every test knows.
//
//	srv := refservertest.Start(t)                          // empty, in memory
//	srv := refservertest.Start(t, refservertest.CITick(50*time.Millisecond))
//	srv := refservertest.Start(t, func(o *refserver.Options) { o.RateLimit = 2 })
//	srv := refservertest.DemoWorld(t)                      // the demo, on the fixed clock Now
//
//	tok := refservertest.User(t, srv, "alice", "")         // an account (made unless it exists), a token of theirs
//	env := refservertest.Env(t, srv, "alice")              // forge's environment as alice
//
// The admin is "admin" with AdminPassword; User's accounts have
// Password(login); the demo world's have refserver.DemoPassword. Env is the
// whole environment forge needs to act as a user: the REST token, the
// agent's address and key, the registry's address and credentials, and a
// configuration and home directory of its own.
//
// A test that needs the server built but not listening (to serve its
// Handler behind something of its own) uses New. Harnesses not driven by
// a *testing.T (testscript's Setup and commands) pass anything with
// Helper, Fatal and Cleanup (TB).
//
// Package refserver's own in-package tests cannot import this package (it
// imports refserver); its tests are in package refserver_test and use it,
// and the one in-package test (close_test.go, which reads the listener)
// needs no password.
//
// Only tests import it, so forge itself never links it.
package refservertest

import (
	"testing"
	"time"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/store"
)

// AdminPassword is the password of the site admin ("admin") of every
// server this package starts, unless an Option sets another.
const AdminPassword = "admin-password-1234"

// Password is the password User gives the accounts it makes.
func Password(login string) string { return login + "-password-1234" }

// Now is the demo world's fixed clock (see DemoWorld): its records are
// dated from it, so what views show is the same on every run.
var Now = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

// TB is what this package needs of a test: *testing.T and *testing.B fit,
// and so does a small adapter over testscript's Env or TestScript.
type TB interface {
	Helper()
	Fatal(args ...any)
	Cleanup(func())
}

// An Option changes the server's Options before it is made. Any field can
// be set with a literal: func(o *refserver.Options) { o.RateLimit = 2 }.
type Option func(*refserver.Options)

// Demo seeds the demo world (on the real clock; DemoWorld fixes it).
func Demo() Option { return func(o *refserver.Options) { o.Demo = true } }

// CITick is how long a workflow run takes per log line.
func CITick(d time.Duration) Option { return func(o *refserver.Options) { o.CITick = d } }

// Clock is the server's clock.
func Clock(now func() time.Time) Option { return func(o *refserver.Options) { o.Now = now } }

// DataDir keeps the state in dir, so a second server over it sees the
// first one's.
func DataDir(dir string) Option { return func(o *refserver.Options) { o.DataDir = dir } }

// Options are the Options New makes a server with: AdminPassword, then
// opts in order.
func Options(opts ...Option) refserver.Options {
	o := refserver.Options{AdminPassword: AdminPassword}
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// New makes a server without listening, closed when the test ends. Most
// tests want Start.
func New(t TB, opts ...Option) *refserver.Server {
	t.Helper()
	srv, err := refserver.New(Options(opts...))
	if err != nil {
		t.Fatal(err)
	}
	// Close may run twice (a test that closes it to restart over the same
	// DataDir): it is idempotent.
	t.Cleanup(func() { srv.Close() })
	return srv
}

// Start makes a server and starts it on 127.0.0.1 with a free port; it is
// closed when the test ends.
func Start(t TB, opts ...Option) *refserver.Server {
	t.Helper()
	srv := New(t, opts...)
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	return srv
}

// DemoWorld starts a server with the demo world on the fixed clock Now;
// CI runs hold still (a tick lasts an hour). opts come after, to change
// any of it.
func DemoWorld(t TB, opts ...Option) *refserver.Server {
	t.Helper()
	return Start(t, append([]Option{Demo(), Clock(func() time.Time { return Now }), CITick(time.Hour)}, opts...)...)
}

// User makes sure login has an account — making it, with Password(login)
// and role ("" is user), unless it exists — and returns a new token of
// theirs.
func User(t TB, srv *refserver.Server, login, role string) string {
	t.Helper()
	if _, ok := srv.Store().UserByLogin(login); !ok {
		if _, err := srv.CreateUser(login, Password(login), role); err != nil {
			t.Fatal(err)
		}
	}
	tok, err := srv.Token(login)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// Env is forge's environment as login on srv (made with User unless the
// account exists): the REST address and token, the agent's address and
// key, the registry's address, login and password (the demo password on
// the demo world, Password(login) for User's accounts), and a configuration and home
// directory of the test's own.
func Env(t testing.TB, srv *refserver.Server, login string) map[string]string {
	t.Helper()
	return map[string]string{
		"FORGE_CONFIG_DIR":   t.TempDir(),
		"HOME":               t.TempDir(),
		"FORGE_BASE_URL":     srv.BaseURL(),
		"FORGE_TOKEN":        User(t, srv, login, ""),
		"AGENT_URL":          srv.AgentURL(),
		"AGENT_API_KEY":      srv.AgentKey(),
		"FORGE_REGISTRY_URL": srv.URL(),
		"FORGE_USERNAME":     login,
		"FORGE_PASSWORD":     password(srv, login),
	}
}

// password is login's password if it is one this package knows: the
// demo's, User's or the admin's.
func password(srv *refserver.Server, login string) string {
	u, _ := srv.Store().UserByLogin(login)
	for _, pw := range []string{refserver.DemoPassword, Password(login), srv.AdminPassword()} {
		if store.PasswordMatches(u.PasswordHash, pw) {
			return pw
		}
	}
	return ""
}
