package refserver_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
)

// registryToken gets a registry token for alice/img from the token
// service with the login's password.
func registryToken(t *testing.T, s *refserver.Server, user, password string) string {
	t.Helper()
	q := url.Values{"service": {"forge-registry"}, "scope": {"repository:" + user + "/img:push,pull"}}
	req, _ := http.NewRequest("GET", s.URL()+"/token?"+q.Encode(), nil)
	req.SetBasicAuth(user, password)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var tr struct{ Token string }
	if res.StatusCode != 200 || json.NewDecoder(res.Body).Decode(&tr) != nil || tr.Token == "" {
		t.Fatalf("registry token: %s", res.Status)
	}
	return tr.Token
}

// registryStatus is the status of GET /v2/ with a registry token.
func registryStatus(t *testing.T, s *refserver.Server, jwt string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", s.URL()+"/v2/", nil)
	req.Header.Set("Authorization", "Bearer "+jwt)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// TestChangesEndSessions: turning two-factor authentication on or off,
// or changing the password, ends every session of the account but the
// one that made the change: its other REST tokens stop working on the
// REST API and over git (the real git binary), and the registry tokens
// issued before it are refused.
func TestChangesEndSessions(t *testing.T) {
	needGit(t)
	t.Parallel()
	c := &clock{t: time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)}
	s := refservertest.Start(t, refservertest.Clock(c.Now))
	const pw = "alice-password-123"
	mine := mustUser(t, s, "alice", pw, "")
	want(t, call(t, s, "POST", "/repos", mine, map[string]any{"name": "app", "auto_init": true}), 201)
	gitWorks := func(token string) bool {
		u, _ := url.Parse(s.URL() + "/alice/app.git")
		u.User = url.UserPassword("x", token)
		_, err := gitCmd(t, t.TempDir(), "ls-remote", u.String())
		return err == nil
	}
	ended := func(change, token, jwt string) {
		t.Helper()
		if r := call(t, s, "GET", "/me", token, nil); r.status != 401 {
			t.Errorf("after %s, another session's token: %d", change, r.status)
		}
		if gitWorks(token) {
			t.Errorf("after %s, git with another session's token worked", change)
		}
		if st := registryStatus(t, s, jwt); st != 401 {
			t.Errorf("after %s, a registry token issued before: %d", change, st)
		}
	}

	other, jwt := login(t, s, "alice", pw), registryToken(t, s, "alice", pw)
	if !gitWorks(other) || registryStatus(t, s, jwt) != 200 {
		t.Fatal("the sessions do not work to begin with")
	}
	secret := want(t, call(t, s, "POST", "/me/2fa/setup", mine, nil), 200).str("secret")
	want(t, call(t, s, "POST", "/me/2fa/confirm", mine, map[string]string{"code": code(t, secret, c.Now())}), 200)
	ended("turning 2FA on", other, jwt)
	want(t, call(t, s, "GET", "/me", mine, nil), 200)
	if !gitWorks(mine) {
		t.Error("the session that turned 2FA on lost git")
	}

	c.Add(30 * time.Second)
	other = login(t, s, "alice", pw)
	want(t, call(t, s, "POST", "/me/2fa/verify", other, map[string]string{"code": code(t, secret, c.Now())}), 200)
	jwt = registryToken(t, s, "alice", pw)
	if registryStatus(t, s, jwt) != 200 {
		t.Fatal("a registry token after 2FA was turned on does not work")
	}
	c.Add(30 * time.Second)
	want(t, call(t, s, "POST", "/me/2fa/disable", mine, map[string]string{"code": code(t, secret, c.Now())}), 200)
	ended("turning 2FA off", other, jwt)
	want(t, call(t, s, "GET", "/me", mine, nil), 200)

	other, jwt = login(t, s, "alice", pw), registryToken(t, s, "alice", pw)
	fresh := want(t, call(t, s, "POST", "/me/password", mine, map[string]string{"old_password": pw, "new_password": "alice-password-456"}), 200).str("token")
	ended("a change of password", other, jwt)
	ended("a change of password", mine, jwt)
	want(t, call(t, s, "GET", "/me", fresh, nil), 200)
	if registryStatus(t, s, registryToken(t, s, "alice", "alice-password-456")) != 200 {
		t.Error("a registry token with the new password does not work")
	}
}
