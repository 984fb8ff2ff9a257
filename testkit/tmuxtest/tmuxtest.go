// Package tmuxtest runs forge on a real terminal — a tmux session on a
// tmux server of the test's own — for the tests of what only a terminal
// shows: redraws, the alternate screen, Ctrl-C, line editing. Only tests
// import it.
//
// The test binary plays forge: its TestMain is Main(m, cmd.Main), which
// runs forge when FORGE_TEST_AS_FORGE=1 (AsForge), as Start sets for the
// pane.
package tmuxtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// AsForge is the environment variable that makes a test binary run as
// forge; a TestMain checks it before running the tests.
const AsForge = "FORGE_TEST_AS_FORGE"

// Main is a TestMain that lets the test binary run as forge (forgeMain,
// as cmd.Main) when AsForge is set, and runs the tests otherwise.
func Main(m *testing.M, forgeMain func() int) {
	if os.Getenv(AsForge) == "1" {
		os.Exit(forgeMain())
	}
	os.Exit(m.Run())
}

// timeout bounds every wait: far longer than any screen takes to appear,
// so it only ends a test that is stuck.
const timeout = 2 * time.Minute

// Term is a terminal with forge running in it.
type Term struct {
	t        testing.TB
	socket   string
	exitFile string
	// History is how many lines of scrollback Screen includes.
	History int
}

// New gives the test a tmux server of its own, killed when the test ends,
// or skips the test when tmux is not installed (.ci/run installs it).
func New(t testing.TB, name string) *Term {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it)")
	}
	x := &Term{t: t, socket: fmt.Sprintf("forge-%s-%d", name, os.Getpid())}
	t.Cleanup(func() { exec.Command("tmux", "-L", x.socket, "kill-server").Run() })
	return x
}

// Start runs forge with args on a width×height terminal, with env added to
// its environment. The shell around it first runs before (if not empty),
// survives Ctrl-C (a trap with a command is reset to the default in forge)
// and records forge's exit status for ExitStatus, then keeps the pane open
// so the screen can still be read.
func (x *Term) Start(width, height int, env []string, before string, args ...string) {
	x.t.Helper()
	x.exitFile = filepath.Join(x.t.TempDir(), "exit")
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = fmt.Sprintf("%q", a)
	}
	script := fmt.Sprintf("trap true INT; %q %s; echo $? > %q; sleep 60", os.Args[0], strings.Join(quoted, " "), x.exitFile)
	if before != "" {
		script = before + "; " + script
	}
	cmd := []string{"new-session", "-d", "-s", "s", "-x", fmt.Sprint(width), "-y", fmt.Sprint(height), "env", AsForge + "=1"}
	cmd = append(append(cmd, env...), "sh", "-c", script)
	x.Run(cmd...)
}

// Run runs a tmux command on the test's server.
func (x *Term) Run(args ...string) string {
	x.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", x.socket}, args...)...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Screen is what the terminal shows now (with History lines of
// scrollback), wrapped lines joined, so a line too wide for the terminal
// shows as one long line.
func (x *Term) Screen() string {
	args := []string{"capture-pane", "-p", "-J", "-t", "s"}
	if x.History > 0 {
		args = append(args, "-S", fmt.Sprint(-x.History))
	}
	return x.Run(args...)
}

// Keys types keys, in tmux's send-keys names (Enter, C-c, Up, ...).
func (x *Term) Keys(keys ...string) { x.Run(append([]string{"send-keys", "-t", "s"}, keys...)...) }

// Flag reads a pane format such as #{alternate_on}.
func (x *Term) Flag(name string) string {
	return strings.TrimSpace(x.Run("display-message", "-p", "-t", "s", "#{"+name+"}"))
}

// WaitFor polls the screen until ok accepts it, and returns it; what names
// the awaited screen in the failure message.
func (x *Term) WaitFor(what string, ok func(screen string) bool) string {
	x.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		s := x.Screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("the screen never showed %s:\n%s", what, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Clipboard polls tmux's newest paste buffer (what an OSC 52 copy put
// there) until ok accepts it, and returns it. The copy reaches tmux as its
// own write, which may come after the frame saying "Copied", so reading
// the buffer once races it.
func (x *Term) Clipboard(ok func(buffer string) bool) string {
	x.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		out, err := exec.Command("tmux", "-L", x.socket, "show-buffer").CombinedOutput()
		got := string(out)
		if err == nil && ok(got) || time.Now().After(deadline) {
			return got
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Shows waits until the screen contains every one of want.
func (x *Term) Shows(want ...string) string {
	x.t.Helper()
	return x.WaitFor(fmt.Sprintf("%q", want), func(s string) bool {
		for _, w := range want {
			if !strings.Contains(s, w) {
				return false
			}
		}
		return true
	})
}

// ShowsTimes waits until the screen contains want at least n times.
func (x *Term) ShowsTimes(want string, n int) string {
	x.t.Helper()
	return x.WaitFor(fmt.Sprintf("%q %d times", want, n), func(s string) bool { return strings.Count(s, want) >= n })
}

// ExitStatus waits for forge to exit and returns its status.
func (x *Term) ExitStatus() string {
	x.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if data, err := os.ReadFile(x.exitFile); err == nil && len(data) > 0 {
			return strings.TrimSpace(string(data))
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("forge did not exit:\n%s", x.Screen())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
