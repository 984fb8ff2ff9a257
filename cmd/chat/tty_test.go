package chat_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

func (x *tmux) screen() string { return x.run("capture-pane", "-p", "-J", "-S", "-200", "-t", "s") }

// waitFor polls the screen until it contains want n times.
func (x *tmux) waitFor(want string, n int) string {
	x.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s := x.screen()
		if strings.Count(s, want) >= n {
			return s
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("screen never showed %q (%d times):\n%s", want, n, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (x *tmux) keys(keys ...string) { x.run(append([]string{"send-keys", "-t", "s"}, keys...)...) }

// TestTerminalSession holds a session on a real terminal: streaming,
// Ctrl-C during a reply, history on the up arrow, Ctrl-C on a typed line,
// bracketed paste, a line continued with \, the commands, and Ctrl-C on an
// empty line to leave.
func TestTerminalSession(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it)")
	}
	t.Parallel()
	srv, err := refserver.New(refserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	srv.Agent().SetChunkDelay(15 * time.Millisecond)

	dir := t.TempDir()
	x := &tmux{t: t, socket: fmt.Sprintf("forge-chat-test-%d", os.Getpid())}
	defer exec.Command("tmux", "-L", x.socket, "kill-server").Run()
	exitFile := filepath.Join(dir, "exit")
	script := fmt.Sprintf("%q chat; echo $? > %q", os.Args[0], exitFile)
	x.run("new-session", "-d", "-s", "s", "-x", "120", "-y", "50",
		"env", "FORGE_TEST_AS_FORGE=1", "NO_COLOR=1", "FORGE_CONFIG_DIR="+dir,
		"AGENT_URL="+srv.AgentURL(), "AGENT_API_KEY="+srv.AgentKey(), "sh", "-c", script)

	x.waitFor("Ctrl-D or /exit ends the session", 1)
	x.keys("Hello there", "Enter")
	s := x.waitFor("132 tokens: 6 prompt + 126 reply", 1)
	// Rendered as markdown once each block settles: no ** or backticks
	// left, bullets for the list, lines wrapped to the terminal.
	for _, want := range []string{"You asked about Hello there. This is turn 1", "• Your message has 2 words", "fingerprint is 6000f971,"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}

	// Ctrl-C while the reply streams stops only the reply.
	x.keys("Tell me more", "Enter")
	x.waitFor("Tell me more", 2)
	x.keys("C-c")
	s = x.waitFor("(reply interrupted; the part received stays in the conversation)", 1)
	if strings.Contains(s, "The history you sent holds 2 earlier messages") {
		t.Errorf("the reply was not interrupted:\n%s", s)
	}

	// Tab completes commands and model names; the up arrow recalls
	// earlier lines; Ctrl-C clears a typed line.
	x.keys("/mo", "Tab")
	x.waitFor("> /model ", 1)
	x.keys("ref-1-m", "Tab", "Enter")
	x.waitFor("Switched to model ref-1-mini.", 1)
	x.keys("Up")
	x.waitFor("> /model ref-1-mini", 2)
	x.keys("C-c")
	x.waitFor("(cleared; the up arrow brings it back)", 1)

	// A paste of several lines is one message; so are lines ending in \.
	x.run("set-buffer", "-b", "p", "pasted one\npasted two")
	x.run("paste-buffer", "-p", "-b", "p", "-t", "s")
	x.waitFor("… pasted two", 1)
	x.keys("Enter")
	// The interrupted turn stayed in the history: this is turn 3.
	x.waitFor(" tokens: ", 2)
	x.waitFor("You asked about pasted one pasted two (turn 3).", 1)
	x.keys(`first \`, "Enter")
	x.waitFor("… ", 2)
	x.keys("second", "Enter")
	x.waitFor(" tokens: ", 3)
	x.waitFor("You asked about first second (turn 4).", 1)

	x.keys("/us", "Tab", "Enter")
	x.waitFor("tokens used (tier pro)", 1)
	x.keys("/nope", "Enter")
	x.waitFor("forge: unknown command /nope", 1)

	// Ctrl-C on an empty line ends the session, with status 0.
	x.keys("C-c")
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
			t.Fatalf("forge chat did not exit:\n%s", x.screen())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
