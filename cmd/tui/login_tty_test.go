package tui_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/testkit/tmuxtest"
)

// TestTerminalLogin: on a real 80×24 terminal, the service revokes the
// stored token; r brings up the login form, the password (never shown)
// logs in again, and the new token is in the configuration.
func TestTerminalLogin(t *testing.T) {
	x, srv, old := tmuxtest.Demo(t, "tui-login")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	profile := "current_profile: default\nprofiles:\n  default:\n    base_url: " + srv.BaseURL() + "\n    user: alice\n    token: " + old + "\n"
	if err := os.WriteFile(cfg, []byte(profile), 0o600); err != nil {
		t.Fatal(err)
	}
	// No keyring answers here: the token stays in the file.
	x.Start(80, 24, []string{"FORGE_CONFIG_DIR=" + dir, "XDG_STATE_HOME=" + t.TempDir(), "DBUS_SESSION_BUS_ADDRESS=unix:path=" + filepath.Join(dir, "no-bus"),
		"AGENT_URL=" + srv.AgentURL(), "AGENT_API_KEY=" + srv.AgentKey(), "TERM=xterm-256color"}, "", "tui")
	x.Shows("alice/webapp", "alice@default")

	c, err := client.New(srv.BaseURL(), old)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Post(context.Background(), "/auth/logout", nil, nil); err != nil {
		t.Fatal(err)
	}
	x.Keys("r")
	x.Shows("Log in", "Username  alice", "Password", "enter to type the password")
	x.Keys("Enter")
	x.Run("send-keys", "-t", "s", "-l", refserver.DemoPassword)
	if s := x.Shows("••••"); strings.Contains(s, refserver.DemoPassword) {
		t.Fatalf("the password is on the screen:\n%s", s)
	}
	x.Keys("Enter")
	x.Shows("Logged in as alice")
	x.Keys("Enter")
	x.Shows("Support graceful shutdown")
	x.Keys("q")
	if st := x.ExitStatus(); st != "0" {
		t.Errorf("exit status %s", st)
	}
	data, err := os.ReadFile(cfg)
	if err != nil || strings.Contains(string(data), old) || !strings.Contains(string(data), "token:") {
		t.Fatalf("the configuration after the login (%v):\n%s", err, data)
	}
}
