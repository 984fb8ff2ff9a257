package tui_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/testkit/tmuxtest"
)

// TestEditorOnATerminal: ctrl+o opens the comment draft in $EDITOR with
// forge out of the way, and the edited text comes back into the draft —
// its tab too — and is what the server receives.
func TestEditorOnATerminal(t *testing.T) {
	x, srv, token := tmuxtest.Demo(t, "tuieditor")
	// The "editor" shows it has the terminal, then adds an indented line.
	editor := tmuxtest.Script(t, "editor", "echo \"editing $1\"; sleep 1; printf '\\n\\tindented with a tab' >> \"$1\"\n")
	env := append(tmuxtest.Env(t, srv, token), "HOME="+t.TempDir(), "VISUAL=", "EDITOR="+editor)

	x.Start(80, 24, env, "", "tui", "-R", "alice/webapp", "--tab", "issues")
	x.Shows("#6 Support graceful shutdown")
	x.Keys("Enter")
	x.Shows("Support graceful shutdown #6")
	x.Keys("c")
	x.Keys("draft:")
	x.Shows("draft:", "ctrl+o edit in $EDITOR")
	x.Keys("C-o")
	x.Shows("editing /")
	s := x.Shows("draft:", "    indented with a tab")
	if strings.Contains(s, "editing /") {
		t.Errorf("the editor's screen is still shown:\n%s", s)
	}
	x.Keys("C-s")
	x.Shows("Commented on #6.")

	c, err := client.New(srv.BaseURL(), token)
	if err != nil {
		t.Fatal(err)
	}
	is, err := c.Issues.Get(context.Background(), client.RepoName{Owner: "alice", Name: "webapp"}, 6)
	if err != nil {
		t.Fatal(err)
	}
	last := is.CommentsList[len(is.CommentsList)-1].Body
	if want := "draft:\n\tindented with a tab"; last != want {
		t.Errorf("the server has the comment %q, want %q", last, want)
	}

	// The chat's message too.
	x.Keys("5")
	x.Shows("model ref-1 (default)")
	x.Keys("ask", "C-o")
	x.Shows("editing /")
	x.Shows("› ask", "    indented with a tab")
}

// TestSuspendOnATerminal: Ctrl-Z gives the terminal back to the shell
// with forge stopped; fg brings forge back where it was.
func TestSuspendOnATerminal(t *testing.T) {
	x, srv, token := tmuxtest.Demo(t, "tuisuspend")
	env := append(tmuxtest.Env(t, srv, token), "HOME="+t.TempDir(), tmuxtest.AsForge+"=1", "PS1=shell$ ")
	// An interactive shell, for job control.
	x.Run(append(append([]string{"new-session", "-d", "-s", "s", "-x", "80", "-y", "24", "env"}, env...), "sh", "-i")...)
	x.Shows("shell$")
	x.Keys(fmt.Sprintf("%q tui -R alice/webapp --tab issues", os.Args[0]), "Enter")
	x.Shows("#6 Support graceful shutdown")
	x.Keys("C-z")
	s := x.Shows("Stopped", "shell$")
	if strings.Contains(s, "#6 Support graceful shutdown") {
		t.Errorf("forge's screen is still shown:\n%s", s)
	}
	x.Keys("fg", "Enter")
	x.Shows("#6 Support graceful shutdown", "alice@default")
	x.Keys("q")
	x.WaitFor("the shell back", func(s string) bool { return !strings.Contains(s, "Support graceful") })
}
