package tmuxtest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
)

// Demo is the set-up of a parallel terminal test of forge tui: a terminal
// of its own (New, so it skips without tmux), then the reference server's
// demo world, closed when the test ends, with a token of alice's.
func Demo(t *testing.T, name string) (*Term, *refserver.Server, string) {
	t.Helper()
	x := New(t, name)
	t.Parallel()
	srv, token := DemoWorld(t)
	return x, srv, token
}

// DemoWorld starts the reference server's demo world for a terminal test,
// closed when the test ends, and returns it with a token of alice's.
func DemoWorld(t testing.TB) (*refserver.Server, string) {
	t.Helper()
	srv := refservertest.Start(t, refservertest.Demo())
	return srv, refservertest.User(t, srv, "alice", "")
}

// Env is forge's environment as the owner of token against srv: a
// configuration and state of the test's own, the token and the agent given
// by variables, a 256-colour terminal.
func Env(t testing.TB, srv *refserver.Server, token string) []string {
	return []string{"FORGE_CONFIG_DIR=" + t.TempDir(), "XDG_STATE_HOME=" + t.TempDir(), "FORGE_BASE_URL=" + srv.BaseURL(), "FORGE_TOKEN=" + token,
		"AGENT_URL=" + srv.AgentURL(), "AGENT_API_KEY=" + srv.AgentKey(), "TERM=xterm-256color"}
}

// ChatEnv is forge chat's environment against srv's agent, without
// colour: a configuration of the test's own, the agent given by variables.
func ChatEnv(t testing.TB, srv *refserver.Server) []string {
	return []string{"NO_COLOR=1", "FORGE_CONFIG_DIR=" + t.TempDir(),
		"AGENT_URL=" + srv.AgentURL(), "AGENT_API_KEY=" + srv.AgentKey()}
}

// Script writes a shell script that forge runs (an $EDITOR, a $BROWSER)
// to a directory of the test's own and returns its path.
func Script(t testing.TB, name, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// Chat is the set-up of a parallel terminal test of forge chat: a
// terminal of its own (New), then a reference server, closed when the
// test ends.
func Chat(t *testing.T, name string) (*Term, *refserver.Server) {
	t.Helper()
	x := New(t, name)
	t.Parallel()
	return x, refservertest.Start(t)
}
