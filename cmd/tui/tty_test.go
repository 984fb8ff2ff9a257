package tui_test

import (
	"context"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/testkit/tmuxtest"
)

// TestMain lets the test binary run as forge, so tmux can start it on a
// real terminal.
func TestMain(m *testing.M) { tmuxtest.Main(m, cmd.Main) }

// TestTerminal runs forge tui on a real 80×24 terminal against the demo
// world: open a repository, open an issue, close it — on the server too —
// resize, and quit with q, leaving the shell's screen as it was.
func TestTerminal(t *testing.T) {
	x, srv, token := tmuxtest.Demo(t, "tui")

	// The shell stays after forge exits, to show what is left on the screen.
	x.Start(80, 24, tmuxtest.Env(t, srv, token), "echo shell before", "tui")

	x.Shows("1 Repos", "alice/webapp", "alice/infra", "alice@default")
	x.Keys("Enter")
	x.Shows("Repositories › alice/webapp", "Open issues", "#6 Support graceful shutdown")
	x.Keys("Enter")
	x.Shows("Support graceful shutdown #6", "● open", "Ctrl-C should drain connections.")
	x.Keys("x")
	x.Shows("Close #6 Support graceful shutdown? [y/N]")
	x.Keys("y")
	s := x.Shows("● closed", "Closed #6.")
	if lines := strings.Split(strings.TrimRight(s, "\n"), "\n"); len(lines) > 24 {
		t.Errorf("the screen has %d lines", len(lines))
	}
	c, err := client.New(srv.BaseURL(), token)
	if err != nil {
		t.Fatal(err)
	}
	is, err := c.Issues.Get(context.Background(), client.RepoName{Owner: "alice", Name: "webapp"}, 6)
	if err != nil || is.State != "closed" {
		t.Fatalf("the server says #6 is %v (%v)", is.State, err)
	}
	// Back in the list, #6 has gone from the open issues.
	x.Keys("Escape")
	s = x.Shows("Open issues · 3 issues")
	if strings.Contains(s, "graceful") {
		t.Errorf("#6 is still listed as open:\n%s", s)
	}
	// Smaller, then larger: every line fits, nothing wraps.
	x.Run("resize-window", "-t", "s", "-x", "50", "-y", "14")
	s = x.Shows("Open issues")
	for _, l := range strings.Split(s, "\n") {
		if len([]rune(l)) > 50 {
			t.Errorf("a line wider than the terminal: %q", l)
		}
	}
	x.Run("resize-window", "-t", "s", "-x", "80", "-y", "24")
	x.Shows("Document the deploy process", "alice@default")

	x.Keys("q")
	if st := x.ExitStatus(); st != "0" {
		t.Errorf("exit status %s", st)
	}
	// The alternate screen is gone: the shell's own text is back.
	if s := x.Screen(); !strings.Contains(s, "shell before") || strings.Contains(s, "Open issues") {
		t.Errorf("the screen after quitting:\n%s", s)
	}
}

// TestNeedsTerminal: piped, forge tui says what to use instead, exit 2.
func TestNeedsTerminal(t *testing.T) {
	ios, _, _, errOut := iostreams.Test()
	f := cmdutil.New(ios, func(k string) string {
		if k == "FORGE_CONFIG_DIR" {
			return t.TempDir()
		}
		return ""
	})
	code := cmd.Run(context.Background(), f, []string{"tui"})
	if code != 2 || !strings.Contains(errOut.String(), "forge tui needs a terminal") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	ios.SetStdinTTY(true)
	ios.SetStdoutTTY(true)
	code = cmd.Run(context.Background(), f, []string{"tui", "--tab", "nope"})
	if code != 2 || !strings.Contains(errOut.String(), "choose one of repos, issues, ci, images, chat, account") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

// TestNothingLostOnATerminal: on a real terminal, Ctrl-C stops a chat
// reply without quitting; a comment draft survives forge being killed
// (kill -9: no chance to save on the way out) and is back on the next
// launch; quitting with it asks first.
func TestNothingLostOnATerminal(t *testing.T) {
	x, srv, token := tmuxtest.Demo(t, "tuikeep")
	// Held after 3 chunks: Ctrl-C comes in the middle of the reply
	// however slow the machine.
	release := srv.Agent().HoldAfter(3)
	defer release()
	env := append(tmuxtest.Env(t, srv, token), "HOME="+t.TempDir())

	x.Start(80, 24, env, "", "tui", "--tab", "chat")
	x.Shows("model ref-1 (default)")
	x.Keys("Tell me more", "Enter")
	x.Shows("replying · esc stops")
	x.Keys("C-c")
	x.Shows("(reply interrupted; the part received stays in the", "model ref-1 (default)")
	release()

	// A comment draft, then forge is killed.
	x.Keys("Escape")
	x.Shows("enter/i type a message")
	x.Keys("1")
	x.Shows("alice/webapp")
	x.Keys("Enter")
	x.Shows("#6 Support graceful shutdown")
	x.Keys("Enter")
	x.Shows("Support graceful shutdown #6")
	x.Keys("c")
	x.Keys("a draft that must not be lost")
	x.Shows("a draft that must not be lost")
	pane := strings.TrimSpace(x.Run("display-message", "-p", "-t", "s", "#{pane_pid}"))
	out, err := exec.Command("pgrep", "-P", pane).Output()
	if err != nil {
		t.Fatalf("forge's process: %v", err)
	}
	pid, err := strconv.Atoi(strings.Fields(string(out))[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if st := x.ExitStatus(); st != "137" {
		t.Fatalf("exit status %s after kill -9", st)
	}

	// The next launch, on a terminal of its own.
	x = tmuxtest.New(t, "tuikeep2")
	x.Start(80, 24, env, "", "tui", "-R", "alice/webapp", "--tab", "issues")
	x.Shows("#6 Support graceful shutdown", "Kept from your last session: the chat conversation with")
	x.Keys("Enter")
	x.Shows("Comment draft (kept) · c continues it", "a draft that must not be lost")
	x.Keys("c")
	x.Shows("Comment · ctrl+s sends", "a draft that must not be lost")
	// Ctrl-C hides the editor, keeping the draft; quitting asks.
	x.Keys("C-c")
	x.Shows("The draft is kept: c brings the editor back.")
	x.Keys("q")
	x.Shows("Quit? Kept for your next forge tui: the comment draft on alice/webapp#6.")
	x.Keys("y")
	if st := x.ExitStatus(); st != "0" {
		t.Errorf("exit status %s", st)
	}
}
