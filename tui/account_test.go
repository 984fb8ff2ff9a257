package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/tui/tuitest"
)

// TestAccountEditAndPassword: from the Account tab, e edits the profile
// (only what changed is sent) and p changes the password: a wrong
// current password changes nothing and keeps what was typed; the right
// one changes it, the token the service issues is stored in the profile
// and the session goes on with it.
func TestAccountEditAndPassword(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	env := tuitest.Env(t, srv, "alice")
	token := env["FORGE_TOKEN"]
	delete(env, "FORGE_TOKEN")
	cfg := filepath.Join(env["FORGE_CONFIG_DIR"], "config.yaml")
	if err := os.WriteFile(cfg, []byte("current_profile: default\nprofiles:\n  default:\n    base_url: "+srv.BaseURL()+"\n    user: alice\n    token: "+token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h := startEnv(t, srv, env, 100, 24, Options{Tab: tabAccount})
	h.wait("alice (Alice Martin)", "e edit profile")

	h.keys("e")
	h.wait("Edit your profile", "Full name", "Alice Martin")
	h.keys("ctrl+u")
	h.typeText("Alice Liddell")
	h.keys("tab", "tab")
	h.typeText("Oxford")
	h.keys("ctrl+s")
	h.wait("Profile updated.", "alice (Alice Liddell)")

	h.keys("p")
	h.wait("Change your password", "New again")
	h.typeText("not the password")
	h.keys("tab")
	h.typeText("a brand new password")
	h.keys("tab")
	h.typeText("a brand new password")
	h.keys("enter")
	h.wait("the current password is not right; nothing changed", "Change your password")
	h.keys("shift+tab", "shift+tab", "ctrl+u")
	h.typeText(refserver.DemoPassword)
	h.keys("ctrl+s")
	h.wait("Password changed. The new token the service issued is stored in profile default.")

	// Read as forge reads it (the token may be in the keyring).
	if s, err := tuitest.Factory(env).Settings(); err != nil || s.Token == "" || s.Token == token {
		b, _ := os.ReadFile(cfg)
		t.Errorf("the profile's token after the change is the old one or none (%v):\n%s", err, b)
	}
	c, err := client.New(srv.BaseURL(), token)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Account.Me(context.Background()); err == nil {
		t.Errorf("the old token still works: the test shows nothing")
	}
	// The session goes on with the new token.
	h.keys("r")
	h.wait("alice (Alice Liddell)")
	if s := h.settled(); strings.Contains(s, "Log in") || said401(s) {
		t.Errorf("the session lost its token:\n%s", h.plain())
	}
}
