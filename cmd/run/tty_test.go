package run_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/forgehq/forge/cmd"
	"github.com/forgehq/forge/refserver"
)

// TestMain lets the test binary run as forge, so tmux can start it on a
// real terminal.
func TestMain(m *testing.M) {
	if os.Getenv("FORGE_TEST_AS_FORGE") == "1" {
		os.Exit(cmd.Main())
	}
	os.Exit(m.Run())
}

// tmux drives forge on a terminal of its own tmux server.
type tmux struct {
	t      *testing.T
	socket string
}

func newTmux(t *testing.T, name string) *tmux {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it)")
	}
	x := &tmux{t: t, socket: fmt.Sprintf("forge-run-%s-%d", name, os.Getpid())}
	t.Cleanup(func() { exec.Command("tmux", "-L", x.socket, "kill-server").Run() })
	return x
}

func (x *tmux) run(args ...string) string {
	x.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", x.socket}, args...)...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// screen is what the terminal shows now, wrapped lines joined (-J), so a
// line too wide for the terminal shows as one long line.
func (x *tmux) screen() string { return x.run("capture-pane", "-p", "-J", "-t", "s") }

// flag reads a pane format such as #{alternate_on}.
func (x *tmux) flag(name string) string {
	return strings.TrimSpace(x.run("display-message", "-p", "-t", "s", "#{"+name+"}"))
}

// waitFor polls the screen until ok says yes.
func (x *tmux) waitFor(what string, ok func(screen string) bool) string {
	x.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		s := x.screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("screen never showed %s:\n%s", what, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func contains(want string) func(string) bool {
	return func(s string) bool { return strings.Contains(s, want) }
}

// start runs forge with args in a 70x20 terminal; the shell writes forge's
// exit status to the returned file and keeps the pane open.
func (x *tmux) start(t *testing.T, srv *refserver.Server, token string, args ...string) string {
	dir := t.TempDir()
	exitFile := filepath.Join(dir, "exit")
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = fmt.Sprintf("%q", a)
	}
	// The shell survives Ctrl-C (a trap with a command is reset to the
	// default in forge) to record forge's status.
	script := fmt.Sprintf("trap true INT; %q %s; echo $? > %q; sleep 60", os.Args[0], strings.Join(quoted, " "), exitFile)
	x.run("new-session", "-d", "-s", "s", "-x", "70", "-y", "20",
		"env", "FORGE_TEST_AS_FORGE=1", "FORGE_CONFIG_DIR="+dir, "TERM=xterm-256color",
		"FORGE_BASE_URL="+srv.BaseURL(), "FORGE_TOKEN="+token, "sh", "-c", script)
	return exitFile
}

// exitStatus waits for the status the shell wrote.
func exitStatus(t *testing.T, x *tmux, file string) string {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		if data, err := os.ReadFile(file); err == nil && len(data) > 0 {
			return strings.TrimSpace(string(data))
		}
		if time.Now().After(deadline) {
			t.Fatalf("forge did not exit:\n%s", x.screen())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func seededServer(t *testing.T, tick time.Duration) (*refserver.Server, string) {
	t.Helper()
	srv, err := refserver.New(refserver.Options{CITick: tick})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if _, err := srv.CreateUser("alice", "alice-password-123", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.CreateRepo("alice", "demo", refserver.RepoOptions{AutoInit: true}); err != nil {
		t.Fatal(err)
	}
	token, err := srv.Token("alice")
	if err != nil {
		t.Fatal(err)
	}
	return srv, token
}

// TestWatchOnTerminal follows a run on a real terminal: redrawn in place
// on the alternate screen with the cursor hidden, cut to the new width at
// once when the terminal shrinks, and when the run completes the main
// screen is back with the cursor, showing the final state.
func TestWatchOnTerminal(t *testing.T) {
	x := newTmux(t, "watch")
	t.Parallel()
	srv, token := seededServer(t, 300*time.Millisecond)
	run, err := srv.CreateRun("alice/demo", refserver.RunSeed{})
	if err != nil {
		t.Fatal(err)
	}
	id := fmt.Sprint(run.ID)
	exitFile := x.start(t, srv, token, "run", "watch", id, "-R", "alice/demo", "--interval", "100ms")

	x.waitFor("the first frame", contains("Refreshing run status every 100ms. Press Ctrl+C to quit."))
	if alt, cursor := x.flag("alternate_on"), x.flag("cursor_flag"); alt != "1" || cursor != "0" {
		t.Errorf("while watching: alternate screen %s, cursor visible %s; want 1 and 0", alt, cursor)
	}
	s := x.waitFor("a job in progress", contains("(in_progress)"))
	if !strings.Contains(s, "main CI · "+id) || !strings.Contains(s, "JOBS") {
		t.Errorf("frame lacks the run's header or jobs:\n%s", s)
	}

	// Shrink the terminal: the next frame (drawn on SIGWINCH, not at the
	// next poll) fits in 40 columns, with nothing left of the wider frame.
	x.run("resize-window", "-t", "s", "-x", "40")
	s = x.waitFor("a frame cut to 40 columns", func(s string) bool {
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

	if st := exitStatus(t, x, exitFile); st != "0" {
		t.Errorf("exit status %s, want 0", st)
	}
	s = x.screen()
	if !strings.Contains(s, `✓ Run CI (`+id+`) completed with "success"`) || strings.Contains(s, "Refreshing run status") {
		t.Errorf("final screen:\n%s", s)
	}
	if alt, cursor := x.flag("alternate_on"), x.flag("cursor_flag"); alt != "0" || cursor != "1" {
		t.Errorf("after watching: alternate screen %s, cursor visible %s; want 0 and 1", alt, cursor)
	}
}

// TestWatchInterrupted: Ctrl-C ends a watch with status 130 and leaves the
// terminal as it was, cursor shown.
func TestWatchInterrupted(t *testing.T) {
	x := newTmux(t, "interrupt")
	t.Parallel()
	srv, token := seededServer(t, 50*time.Millisecond)
	run, err := srv.CreateRun("alice/demo", refserver.RunSeed{Status: "in_progress"})
	if err != nil {
		t.Fatal(err)
	}
	exitFile := x.start(t, srv, token, "run", "watch", fmt.Sprint(run.ID), "-R", "alice/demo", "--exit-status")
	x.waitFor("the first frame", contains("Refreshing run status every 3s."))
	x.run("send-keys", "-t", "s", "C-c")
	if st := exitStatus(t, x, exitFile); st != "130" {
		t.Errorf("exit status %s, want 130", st)
	}
	if s := x.screen(); !strings.Contains(s, "forge: interrupted") {
		t.Errorf("screen after Ctrl-C:\n%s", s)
	}
	if alt, cursor := x.flag("alternate_on"), x.flag("cursor_flag"); alt != "0" || cursor != "1" {
		t.Errorf("after Ctrl-C: alternate screen %s, cursor visible %s; want 0 and 1", alt, cursor)
	}
}
