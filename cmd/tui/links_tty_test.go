package tui_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/testkit/tmuxtest"
)

// TestCopyAndBrowseOnATerminal: y copies the selected item's address to
// the terminal's clipboard (OSC 52: tmux keeps it as a paste buffer) and
// says so; w opens it with $BROWSER; in a job's log Y copies the lines in
// view; in the chat y copies the last reply.
func TestCopyAndBrowseOnATerminal(t *testing.T) {
	x, srv, token := tmuxtest.Demo(t, "tuilinks")
	opened := filepath.Join(t.TempDir(), "opened")
	browser := tmuxtest.Script(t, "browser", "printf '%s' \"$1\" > "+opened+"\n")
	env := append(tmuxtest.Env(t, srv, token), "HOME="+t.TempDir(), "BROWSER="+browser)
	c, err := client.New(srv.BaseURL(), token)
	if err != nil {
		t.Fatal(err)
	}
	webapp := client.RepoName{Owner: "alice", Name: "webapp"}
	is, err := c.Issues.Get(context.Background(), webapp, 6)
	if err != nil {
		t.Fatal(err)
	}

	x.Start(80, 24, env, "", "tui", "-R", "alice/webapp", "--tab", "issues")
	x.Run("set-option", "-s", "set-clipboard", "on")
	x.Shows("#6 Support graceful shutdown")
	x.Keys("y")
	x.Shows("Copied " + is.HTMLURL)
	if got := x.Clipboard(func(b string) bool { return b == is.HTMLURL }); got != is.HTMLURL {
		t.Errorf("the clipboard holds %q, want %q", got, is.HTMLURL)
	}
	x.Keys("w")
	x.Shows("Opened " + is.HTMLURL + " in the browser.")
	if got, _ := os.ReadFile(opened); string(got) != is.HTMLURL {
		t.Errorf("the browser was given %q", got)
	}

	// A job's log: Y copies the lines shown.
	x.Keys("3")
	// The rows, not only the breadcrumb: Enter on a list still loading
	// opens nothing.
	x.Shows("Runs", "CI on main")
	x.Keys("Enter")
	x.Shows("JOB")
	x.Keys("Enter")
	x.Shows(" log", "==> Set up job")
	x.Keys("g", "Y")
	x.Shows("Copied lines 1–")
	if got := x.Clipboard(func(b string) bool { return strings.Contains(b, "==> Set up job\n") }); !strings.Contains(got, "==> Set up job\n") || strings.Contains(got, "\x1b") {
		t.Errorf("the clipboard holds %q", got)
	}

	// The chat: y copies the last reply.
	x.Keys("5")
	x.Shows("model ref-1 (default)")
	x.Keys("Hello there", "Enter")
	x.Shows("This is turn 1 of our conversation.", "reply 1")
	// esc and y sent at once would read as alt+y.
	x.Keys("Escape")
	x.Shows("enter/i type a message")
	x.Keys("y")
	x.Shows("Copied the last reply to the clipboard.")
	if got := x.Clipboard(func(b string) bool { return strings.Contains(b, "This is turn 1 of our conversation.") }); !strings.Contains(got, "This is turn 1 of our conversation.") {
		t.Errorf("the clipboard holds %q", got)
	}
}
