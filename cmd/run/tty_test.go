package run_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/forgehq/forge/cmd"
	"github.com/forgehq/forge/cmd/run"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/ci"
	"github.com/forgehq/forge/refserver/refservertest"
	"github.com/forgehq/forge/testkit/tmuxtest"
)

// TestMain lets the test binary run as forge, so tmux can start it on a
// real terminal.
func TestMain(m *testing.M) { tmuxtest.Main(m, cmd.Main) }

// start runs forge with args in a 70×20 terminal logged in to srv.
func start(t *testing.T, name string, srv *refserver.Server, token string, args ...string) *tmuxtest.Term {
	x := tmuxtest.New(t, "run-"+name)
	env := []string{"FORGE_CONFIG_DIR=" + t.TempDir(), "TERM=xterm-256color", "FORGE_BASE_URL=" + srv.BaseURL(), "FORGE_TOKEN=" + token}
	x.Start(70, 20, env, "", args...)
	return x
}

// screenState reads whether the alternate screen is on and the cursor shown.
func screenState(x *tmuxtest.Term) (alt, cursor string) {
	return x.Flag("alternate_on"), x.Flag("cursor_flag")
}

func seededServer(t *testing.T, tick time.Duration) (*refserver.Server, string) {
	t.Helper()
	srv := refservertest.Start(t, refservertest.CITick(tick))
	token := refservertest.User(t, srv, "alice", "")
	if _, err := srv.CreateRepo("alice", "demo", refserver.RepoOptions{AutoInit: true}); err != nil {
		t.Fatal(err)
	}
	return srv, token
}

// TestWatchOnTerminal follows a run on a real terminal: redrawn in place
// on the alternate screen with the cursor hidden, cut to the new width at
// once when the terminal shrinks, and when the run completes the main
// screen is back with the cursor, showing the final state.
func TestWatchOnTerminal(t *testing.T) {
	t.Parallel()
	srv, token := seededServer(t, 50*time.Millisecond)
	// Held in progress while the test looks at the frames, then let go: a
	// run moving with time alone may end before a slow machine has drawn
	// the first frame, or before the terminal shrinks.
	run, err := srv.CreateRun("alice/demo", refserver.RunSeed{Status: ci.InProgress})
	if err != nil {
		t.Fatal(err)
	}
	id := fmt.Sprint(run.ID)
	x := start(t, "watch", srv, token, "run", "watch", id, "-R", "alice/demo", "--interval", "100ms")

	x.Shows("Refreshing run status every 100ms. Press Ctrl+C to quit.")
	if alt, cursor := screenState(x); alt != "1" || cursor != "0" {
		t.Errorf("while watching: alternate screen %s, cursor visible %s; want 1 and 0", alt, cursor)
	}
	s := x.Shows("(in_progress)")
	if !strings.Contains(s, "main CI · "+id) || !strings.Contains(s, "JOBS") {
		t.Errorf("frame lacks the run's header or jobs:\n%s", s)
	}

	// Shrink the terminal: the next frame (drawn on SIGWINCH, not at the
	// next poll) fits in 40 columns, with nothing left of the wider frame.
	x.Run("resize-window", "-t", "s", "-x", "40")
	s = x.WaitFor("a frame cut to 40 columns", func(s string) bool {
		for _, line := range strings.Split(s, "\n") {
			if strings.HasPrefix(line, "Refreshing run status") {
				return strings.HasSuffix(line, "…") && utf8.RuneCountInString(line) == 40
			}
		}
		return false
	})
	for _, line := range strings.Split(s, "\n") {
		if n := utf8.RuneCountInString(line); n > 40 {
			t.Errorf("line of %d columns on a 40-column terminal: %q", n, line)
		}
	}

	if _, err := srv.Store().SetRunClock(run.ID, func(c *ci.Clock) { c.Hold = nil }); err != nil {
		t.Fatal(err)
	}
	if st := x.ExitStatus(); st != "0" {
		t.Errorf("exit status %s, want 0", st)
	}
	s = x.Screen()
	if !strings.Contains(s, `✓ Run CI (`+id+`) completed with "success"`) || strings.Contains(s, "Refreshing run status") {
		t.Errorf("final screen:\n%s", s)
	}
	if alt, cursor := screenState(x); alt != "0" || cursor != "1" {
		t.Errorf("after watching: alternate screen %s, cursor visible %s; want 0 and 1", alt, cursor)
	}
}

// TestWatchInterrupted: Ctrl-C ends a watch with status 130 and leaves the
// terminal as it was, cursor shown, with the run's last state on it.
func TestWatchInterrupted(t *testing.T) {
	t.Parallel()
	srv, token := seededServer(t, 50*time.Millisecond)
	run, err := srv.CreateRun("alice/demo", refserver.RunSeed{Status: "in_progress"})
	if err != nil {
		t.Fatal(err)
	}
	x := start(t, "interrupt", srv, token, "run", "watch", fmt.Sprint(run.ID), "-R", "alice/demo", "--exit-status")
	x.Shows("Refreshing run status every 3s.")
	x.Keys("C-c")
	if st := x.ExitStatus(); st != "130" {
		t.Errorf("exit status %s, want 130", st)
	}
	// The last state watched stays on the normal screen, above the
	// message, instead of vanishing with the alternate screen.
	s := x.Screen()
	if !strings.Contains(s, "forge: interrupted") || !strings.Contains(s, "main CI · "+fmt.Sprint(run.ID)) ||
		!strings.Contains(s, "JOBS") || strings.Contains(s, "Refreshing run status") {
		t.Errorf("screen after Ctrl-C:\n%s", s)
	}
	if alt, cursor := screenState(x); alt != "0" || cursor != "1" {
		t.Errorf("after Ctrl-C: alternate screen %s, cursor visible %s; want 0 and 1", alt, cursor)
	}
}

// TestWatchReconnectsOnTerminal: when the connection to the service drops,
// the watch says on its screen that it is reconnecting instead of ending,
// and goes back to refreshing once the service answers again.
func TestWatchReconnectsOnTerminal(t *testing.T) {
	t.Parallel()
	srv, token := seededServer(t, 50*time.Millisecond)
	r, err := srv.CreateRun("alice/demo", refserver.RunSeed{Status: "in_progress"})
	if err != nil {
		t.Fatal(err)
	}
	p := run.NewCutProxy(t, strings.TrimPrefix(srv.URL(), "http://"))
	x := tmuxtest.New(t, "run-reconnect")
	env := []string{"FORGE_CONFIG_DIR=" + t.TempDir(), "TERM=xterm-256color", "FORGE_BASE_URL=http://" + p.Addr() + "/api/v2", "FORGE_TOKEN=" + token}
	x.Start(100, 20, env, "", "run", "watch", fmt.Sprint(r.ID), "-R", "alice/demo", "--interval", "200ms")
	x.Shows("Refreshing run status every 200ms.")
	p.SetDown(true)
	x.Shows("Connection lost; reconnecting in ")
	if s := x.Screen(); !strings.Contains(s, "JOBS") {
		t.Errorf("the run is no longer shown while reconnecting:\n%s", s)
	}
	p.SetDown(false)
	x.Shows("Refreshing run status every 200ms.")
	x.Keys("C-c")
	if st := x.ExitStatus(); st != "130" {
		t.Errorf("exit status %s, want 130", st)
	}
}
