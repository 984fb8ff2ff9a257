package authflow_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/app/authflow"
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
	"github.com/pquerna/otp/totp"
)

// anon is a client of srv without a token.
func anon(t *testing.T, srv *refserver.Server) *client.Client {
	t.Helper()
	c, err := client.New(srv.BaseURL(), "")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// works reports whether token is accepted by srv's GET /me.
func works(t *testing.T, srv *refserver.Server, token string) bool {
	t.Helper()
	_, err := anon(t, srv).WithToken(token).Account.Me(context.Background())
	return err == nil
}

// aliceLogsIn starts a server with alice and her login with the right
// password.
func aliceLogsIn(t *testing.T) (*refserver.Server, *authflow.Attempt) {
	t.Helper()
	srv := refservertest.Start(t)
	refservertest.User(t, srv, "alice", "")
	a, err := authflow.Start(context.Background(), anon(t, srv), "alice", refservertest.Password("alice"))
	if err != nil {
		t.Fatal(err)
	}
	return srv, a
}

// TestLogin: the right password gives a token that works, for the right
// user; a wrong one is an AuthError (exit 4) naming the service and
// quoting it.
func TestLogin(t *testing.T) {
	t.Parallel()
	srv, a := aliceLogsIn(t)
	ctx := context.Background()
	if a.NeedsCode {
		t.Error("an account without two-factor authentication needs a code")
	}
	me, err := a.Finish(ctx)
	if err != nil || me.Login != "alice" || !works(t, srv, a.Token) {
		t.Errorf("Finish: %+v %v", me, err)
	}

	_, err = authflow.Start(ctx, anon(t, srv), "alice", "not-her-password")
	var auth *cmdcore.AuthError
	if !errors.As(err, &auth) || cmdcore.ExitCode(err) != 4 || !strings.HasPrefix(err.Error(), "login to "+srv.BaseURL()+" failed: ") {
		t.Errorf("wrong password: %v (exit %d)", err, cmdcore.ExitCode(err))
	}
}

// TestLoginLockedOut: the service refusing logins for a while (429) is an
// AuthError too.
func TestLoginLockedOut(t *testing.T) {
	t.Parallel()
	srv := refservertest.Start(t)
	refservertest.User(t, srv, "alice", "")
	var err error
	for range 10 {
		if _, err = authflow.Start(context.Background(), anon(t, srv), "alice", "wrong-password"); client.HasStatus(err, 429) {
			break
		}
	}
	if !client.HasStatus(err, 429) || cmdcore.ExitCode(err) != 4 {
		t.Errorf("after wrong passwords: %v (exit %d)", err, cmdcore.ExitCode(err))
	}
}

// TestTwoFactor: the token of a two-factor account works only once a
// code is verified; a wrong code is told apart and worded as an
// AuthError; too many lock codes out, saying for how long.
func TestTwoFactor(t *testing.T) {
	t.Parallel()
	srv := refservertest.Start(t)
	refservertest.User(t, srv, "alice", "")
	secret, err := srv.EnableTwoFA("alice")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, err := authflow.Start(ctx, anon(t, srv), "alice", refservertest.Password("alice"))
	if err != nil || !a.NeedsCode {
		t.Fatalf("Start: %+v %v", a, err)
	}
	if _, err := a.Finish(ctx); err == nil {
		t.Error("a token awaiting its code works")
	}
	err = a.Verify(ctx, "000000")
	if !authflow.WrongCode(err) {
		t.Fatalf("a wrong code: %v", err)
	}
	if cerr := authflow.CodeError(err); cmdcore.ExitCode(cerr) != 4 || !strings.HasPrefix(cerr.Error(), "the two-factor code was not accepted: ") {
		t.Errorf("CodeError: %v", cerr)
	}
	code, err := totp.GenerateCode(secret, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Verify(ctx, code); err != nil {
		t.Fatalf("the right code: %v", err)
	}
	if me, err := a.Finish(ctx); err != nil || me.Login != "alice" {
		t.Errorf("Finish after the code: %+v %v", me, err)
	}

	// Wrong codes revoke a login's token after five, and lock the
	// account's codes across logins: a fresh login is refused too.
	var locked error
	for range 3 {
		b, err := authflow.Start(ctx, anon(t, srv), "alice", refservertest.Password("alice"))
		if err != nil {
			t.Fatal(err)
		}
		for range 5 {
			if locked = authflow.CodesLocked(b.Verify(ctx, "111111")); locked != nil {
				break
			}
		}
		if locked != nil {
			break
		}
	}
	if locked == nil || cmdcore.ExitCode(locked) != 4 || !strings.Contains(locked.Error(), "too many wrong two-factor codes") || strings.Contains(locked.Error(), "wait a while") {
		t.Errorf("after wrong codes: %v", locked)
	}
}

// TestAbandon: a login that is not kept leaves no token behind.
func TestAbandon(t *testing.T) {
	t.Parallel()
	srv, a := aliceLogsIn(t)
	ctx := context.Background()
	a.Abandon(ctx)
	if works(t, srv, a.Token) {
		t.Error("an abandoned login's token still works")
	}
	// Revoking a token the service no longer knows is done, not an error.
	if got, err := authflow.Revoke(ctx, anon(t, srv).WithToken(a.Token)); err != nil || got != authflow.Unknown {
		t.Errorf("revoking twice: %v %v", got, err)
	}
}

// TestRevokeWithoutLogout: a service without a logout endpoint (404 or
// 405, which the spec allows) is no error but says so; a 500 is an error.
func TestRevokeWithoutLogout(t *testing.T) {
	t.Parallel()
	for status, ok := range map[int]bool{404: true, 405: true, 500: false} {
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			w.Write([]byte(`{"error":"no"}`))
		}))
		c, err := client.New(ts.URL+"/api/v2", "fgt_token")
		if err != nil {
			t.Fatal(err)
		}
		got, err := authflow.Revoke(context.Background(), c)
		if (err == nil) != ok || (ok && got != authflow.NoEndpoint) {
			t.Errorf("logout answered %d: %v %v", status, got, err)
		}
		ts.Close()
	}
}

// TestStore: a fresh configuration gets the profile, made current; a
// profile of another service is switched to this one, which Store says;
// another current profile stays current.
func TestStore(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ios, _, _, _ := iostreams.Test()
	f := cmdutil.New(ios, func(k string) string { return map[string]string{"FORGE_CONFIG_DIR": dir, "HOME": dir}[k] })
	replaced, saved, err := authflow.Store(f, "dev", "http://127.0.0.1:1/api/v2", "fgt_one", "alice", true)
	if err != nil || replaced != "" || saved.CurrentProfile != "dev" {
		t.Fatalf("first Store: %q %v %v", replaced, saved, err)
	}
	if _, _, err := authflow.Store(f, "prod", "https://forge.example.com/api/v2", "fgt_two", "bob", true); err != nil {
		t.Fatal(err)
	}
	replaced, _, err = authflow.Store(f, "dev", "http://127.0.0.1:2/api/v2", "fgt_three", "carol", true)
	if err != nil || replaced != "http://127.0.0.1:1/api/v2" {
		t.Errorf("Store over another base URL: replaced %q, %v", replaced, err)
	}
	path, _ := f.ConfigPath()
	cf, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	dev, prod := cf.Profile("dev"), cf.Profile("prod")
	if cf.CurrentProfile != "dev" || dev.BaseURL != "http://127.0.0.1:2/api/v2" || dev.Token != "fgt_three" || dev.User != "carol" || prod.Token != "fgt_two" {
		t.Errorf("current %q, dev %+v, prod %+v", cf.CurrentProfile, dev, prod)
	}
}

func TestNormalizeCode(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"123456": "123456", " 123 456 ": "123456", "123-456": "123456", "12345678": "12345678",
		"12345": "", "123456789": "", "12345a": "", "": ""} {
		got, err := authflow.NormalizeCode(in)
		if got != want || (err == nil) != (want != "") {
			t.Errorf("NormalizeCode(%q) = %q, %v", in, got, err)
		}
		if err != nil && !strings.Contains(err.Error(), "give the 6 digits your authenticator app shows") {
			t.Errorf("error %q does not name the fix", err)
		}
	}
}
