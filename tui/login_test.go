package tui

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/app/authflow"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/tui/tuitest"
	"github.com/pquerna/otp/totp"
	"github.com/zalando/go-keyring"
)

var mockKeyring sync.Once

// loggedInProfile is alice's environment without FORGE_TOKEN: her token
// is stored in the configuration's default profile, as `forge auth
// login` leaves it. The keyring is go-keyring's mock.
func loggedInProfile(t *testing.T, srv *refserver.Server) (env map[string]string, token string) {
	t.Helper()
	mockKeyring.Do(keyring.MockInit)
	env = tuitest.Env(t, srv, "alice")
	for _, k := range []string{"FORGE_TOKEN", "FORGE_BASE_URL", "FORGE_USERNAME", "FORGE_PASSWORD"} {
		delete(env, k)
	}
	token, err := srv.Token("alice")
	if err != nil {
		t.Fatal(err)
	}
	writeToken(t, env, srv, token)
	return env, token
}

// writeToken stores token in the default profile, as another shell's
// `forge auth login` would.
func writeToken(t *testing.T, env map[string]string, srv *refserver.Server, token string) {
	t.Helper()
	cfg := "current_profile: default\nprofiles:\n  default:\n    base_url: " + srv.BaseURL() + "\n    user: alice\n    token: " + token + "\n"
	if err := os.WriteFile(filepath.Join(env["FORGE_CONFIG_DIR"], "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
}

// revoke ends token's session on the service, as a restart or `forge
// auth logout` elsewhere does.
func revoke(t *testing.T, srv *refserver.Server, token string) {
	t.Helper()
	c, err := client.New(srv.BaseURL(), token)
	if err == nil {
		_, err = c.Post(context.Background(), "/auth/logout", nil, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// loginAgain revokes old under the running h, then logs in again as
// alice the way a user does: r, then the demo password in the form that
// comes up.
func loginAgain(t *testing.T, h *harness, srv *refserver.Server, old string) {
	t.Helper()
	revoke(t, srv, old)
	h.keys("r")
	h.wait("Log in", "Password", "enter to type the password")
	h.keys("enter")
	h.typeText(refserver.DemoPassword)
	h.keys("enter")
}

// storedToken is the default profile's token, from the file or the keyring.
func storedToken(t *testing.T, env map[string]string) string {
	t.Helper()
	cf, err := config.Load(filepath.Join(env["FORGE_CONFIG_DIR"], "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return cf.Profile("default").Token
}

// shellLogin logs alice in with her password and stores the token in
// the default profile: the steps and the store of `forge auth login`.
func shellLogin(t *testing.T, env map[string]string, srv *refserver.Server) {
	t.Helper()
	ctx := context.Background()
	f := tuitest.Factory(env)
	anon, err := f.RESTClient(srv.BaseURL(), "")
	if err != nil {
		t.Fatal(err)
	}
	a, err := authflow.Start(ctx, anon, "alice", refserver.DemoPassword)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := authflow.Store(f, "default", srv.BaseURL(), a.Token, "alice", false); err != nil {
		t.Fatal(err)
	}
}

func (h *harness) typeText(s string) {
	for _, r := range s {
		h.tm.Send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func TestLoginFormAfterTheTokenIsRevoked(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	env, old := loggedInProfile(t, srv)
	h := startEnv(t, srv, env, 80, 24, Options{})
	h.wait("alice/webapp")
	revoke(t, srv, old)

	h.keys("r")
	s := h.wait("Log in", "profile default", "Password", "L logs in again")
	if !strings.Contains(s, "Username  alice") {
		t.Errorf("the form does not name the account:\n%s", s)
	}
	// esc closes it; L opens it again.
	h.keys("esc")
	h.gone("Password")
	h.keys("L")
	h.wait("Log in", "Password")
	// A wrong password is refused in the form; the stored token stays.
	h.typeText("not the password")
	if s := h.plain(); strings.Contains(s, "not the password") {
		t.Fatalf("the password is shown:\n%s", s)
	}
	h.keys("enter")
	h.wait("✗ login to")
	if got := storedToken(t, env); got != old {
		t.Fatalf("a failed login changed the stored token to %q", got)
	}

	h.typeText(refserver.DemoPassword)
	h.keys("enter")
	h.wait("Logged in as alice", "alice/webapp")
	h.gone("Password")
	tok := storedToken(t, env)
	if tok == "" || tok == old {
		t.Fatalf("the new token was not stored: %q", tok)
	}
	raw, err := os.ReadFile(filepath.Join(env["FORGE_CONFIG_DIR"], "config.yaml"))
	if err != nil || strings.Contains(string(raw), tok) {
		t.Errorf("the new token is in the file, not the keyring (%v):\n%s", err, raw)
	}
	c, _ := client.New(srv.BaseURL(), tok)
	if me, err := c.Account.Me(context.Background()); err != nil || me.Login != "alice" {
		t.Fatalf("the stored token does not work: %v", err)
	}
	// The session goes on with it: another tab loads.
	h.keys("2")
	h.wait("No repository chosen yet.")
	h.keys("1", "enter")
	h.wait("Support graceful shutdown")
}

func TestLoginFormAsksForTheTwoFactorCode(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	env, old := loggedInProfile(t, srv)
	secret, err := srv.EnableTwoFA("alice")
	if err != nil {
		t.Fatal(err)
	}
	h := startEnv(t, srv, env, 80, 24, Options{})
	h.wait("alice/webapp")
	loginAgain(t, h, srv, old)
	h.wait("two-factor authentication on", "Two-factor code")
	// A malformed code is refused before it is sent; a wrong one by the
	// service.
	h.typeText("12ab")
	h.keys("enter")
	h.wait("is not a two-factor code")
	for range 4 {
		h.keys("backspace")
	}
	code, err := totp.GenerateCode(secret, tuitest.Now)
	if err != nil {
		t.Fatal(err)
	}
	wrong := "000000"
	if code == wrong {
		wrong = "111111"
	}
	h.typeText(wrong)
	h.keys("enter")
	h.wait("not accepted", "Two-factor code")
	if got := storedToken(t, env); got != old {
		t.Fatalf("a refused code changed the stored token to %q", got)
	}
	h.typeText(code)
	h.keys("enter")
	h.wait("Logged in as alice", "alice/webapp")
	if tok := storedToken(t, env); tok == old || tok == "" {
		t.Fatalf("the token was not replaced: %q", tok)
	}
}

func TestRefreshPicksUpATokenStoredElsewhere(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	env, old := loggedInProfile(t, srv)
	h := startEnv(t, srv, env, 80, 24, Options{})
	h.wait("alice/webapp")
	// Another shell logs in again, as forge auth login does (the new
	// token goes to the keyring); the old token is revoked.
	shellLogin(t, env, srv)
	revoke(t, srv, old)
	h.keys("r")
	h.wait("Using the token stored in profile default")
	if s := h.plain(); strings.Contains(s, "Log in") || strings.Contains(s, "✗") {
		t.Fatalf("r did not use the token on disk:\n%s", s)
	}
	h.keys("enter")
	h.wait("Support graceful shutdown")
}

func TestLoginWhileFORGE_TOKENIsSet(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	env, old := loggedInProfile(t, srv)
	env["FORGE_TOKEN"] = old
	h := startEnv(t, srv, env, 100, 24, Options{})
	h.wait("alice/webapp")
	loginAgain(t, h, srv, old)
	// The variable still names the old token: the session uses the new
	// one all the same, and says the variable wins outside it.
	h.wait("Logged in as alice", "FORGE_TOKEN is set")
	h.keys("r")
	h.keys("enter")
	h.wait("Support graceful shutdown")
	if s := h.plain(); strings.Contains(s, "✗") || strings.Contains(s, "Password") {
		t.Fatalf("after the login, r went back to FORGE_TOKEN's token:\n%s", s)
	}
}

// TestLoginFormOpenedByItselfWaitsForEnter: keys typed for the view as
// the form opens by itself (the service refused the token) do not go into
// the password; enter starts typing it. After the login, the tab whose
// view was refused no longer shows the refusal.
func TestLoginFormOpenedByItselfWaitsForEnter(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	env, old := loggedInProfile(t, srv)
	h := startEnv(t, srv, env, 80, 24, Options{Repo: tuitest.Webapp, Tab: tabCI})
	h.wait("CI on slog")
	revoke(t, srv, old)
	h.keys("r")
	h.wait("Log in", "Password", "L logs in again")
	h.keys("j", "j", "k")
	h.settled()
	if s := h.plain(); regexp.MustCompile(`Password +•`).MatchString(s) {
		t.Fatalf("keys went into the password:\n%s", s)
	}
	// Logged in from another tab, through L.
	h.keys("esc")
	h.gone("Password")
	h.keys("1")
	h.wait("alice/webapp")
	h.keys("L")
	h.wait("Log in", "Password")
	h.typeText(refserver.DemoPassword)
	h.keys("enter")
	h.wait("Logged in as alice")
	h.gone("Password")
	// The refusal was answered: the CI tab, where it was made, no
	// longer shows it.
	h.keys("3")
	h.wait("CI on slog")
	if s := h.plain(); strings.Contains(s, "L logs in again") || said401(s) {
		t.Errorf("the CI tab still shows the refusal:\n%s", s)
	}
}
