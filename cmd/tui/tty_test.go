package tui_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd"
	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/forgehq/forge/internal/iostreams"
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

// tmux drives a program on a terminal of its own tmux server.
type tmux struct {
	t      *testing.T
	socket string
}

func (x *tmux) run(args ...string) string {
	x.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", x.socket}, args...)...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (x *tmux) screen() string { return x.run("capture-pane", "-p", "-t", "s") }

// waitFor polls the screen until it shows every one of want.
func (x *tmux) waitFor(want ...string) string {
	x.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		s := x.screen()
		ok := true
		for _, w := range want {
			ok = ok && strings.Contains(s, w)
		}
		if ok {
			return s
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("the screen never showed %q:\n%s", want, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (x *tmux) keys(keys ...string) { x.run(append([]string{"send-keys", "-t", "s"}, keys...)...) }

// TestTerminal runs forge tui on a real 80×24 terminal against the demo
// world: open a repository, open an issue, close it — on the server too —
// resize, and quit with q, leaving the shell's screen as it was.
func TestTerminal(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it)")
	}
	t.Parallel()
	srv, err := refserver.New(refserver.Options{Demo: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	token, err := srv.Token("alice")
	if err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	x := &tmux{t: t, socket: fmt.Sprintf("forge-tui-test-%d", os.Getpid())}
	defer exec.Command("tmux", "-L", x.socket, "kill-server").Run()
	exitFile := filepath.Join(dir, "exit")
	// The shell stays after forge exits, to show what is left on the screen.
	script := fmt.Sprintf("echo shell before; %q tui; echo $? > %q; sleep 60", os.Args[0], exitFile)
	x.run("new-session", "-d", "-s", "s", "-x", "80", "-y", "24",
		"env", "FORGE_TEST_AS_FORGE=1", "FORGE_CONFIG_DIR="+dir, "FORGE_BASE_URL="+srv.BaseURL(), "FORGE_TOKEN="+token,
		"AGENT_URL="+srv.AgentURL(), "AGENT_API_KEY="+srv.AgentKey(), "TERM=xterm-256color", "sh", "-c", script)

	x.waitFor("1 Repos", "alice/webapp", "alice/infra", "alice@default")
	x.keys("Enter")
	x.waitFor("Repositories › alice/webapp", "Open issues", "#6 Support graceful shutdown")
	x.keys("Enter")
	x.waitFor("Support graceful shutdown #6", "● open", "Ctrl-C should drain connections.")
	x.keys("x")
	s := x.waitFor("● closed", "Closed #6.")
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
	x.keys("Escape")
	s = x.waitFor("Open issues · 3 issues")
	if strings.Contains(s, "graceful") {
		t.Errorf("#6 is still listed as open:\n%s", s)
	}
	// Smaller, then larger: every line fits, nothing wraps.
	x.run("resize-window", "-t", "s", "-x", "50", "-y", "14")
	s = x.waitFor("Open issues")
	for _, l := range strings.Split(s, "\n") {
		if len([]rune(l)) > 50 {
			t.Errorf("a line wider than the terminal: %q", l)
		}
	}
	x.run("resize-window", "-t", "s", "-x", "80", "-y", "24")
	x.waitFor("Document the deploy process", "alice@default")

	x.keys("q")
	deadline := time.Now().Add(10 * time.Second)
	for {
		data, err := os.ReadFile(exitFile)
		if err == nil && len(data) > 0 {
			if strings.TrimSpace(string(data)) != "0" {
				t.Errorf("exit status %s", data)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("forge tui did not exit:\n%s", x.screen())
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The alternate screen is gone: the shell's own text is back.
	if s := x.screen(); !strings.Contains(s, "shell before") || strings.Contains(s, "Open issues") {
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
