package tui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/tui/tuitest"
)

// footer is the help line of the last frame.
func (h *harness) footer() string {
	lines := strings.Split(strings.TrimRight(h.plain(), "\n"), "\n")
	return lines[len(lines)-1]
}

// TestChatFollowsAfterPaging: after PgUp then PgDn back to the end, the
// chat follows new output again: /usage's answer is in sight.
func TestChatFollowsAfterPaging(t *testing.T) {
	t.Parallel()
	h := start(t, tuitest.Server(t), "alice", 80, 24, Options{Tab: tabChat})
	h.wait("model ref-1 (default)", "used (pro)")
	h.typeText("one")
	h.keys("enter")
	h.wait("turn 1 of our conversation", "tokens (")
	h.typeText("two")
	h.keys("enter")
	h.wait("turn 2 of our conversation", "easy to test", "tokens (")
	h.keys("pgup")
	h.gone("holds 2 earlier messages")
	h.keys("pgdown")
	h.wait("holds 2 earlier messages")
	h.typeText("/usage")
	h.keys("enter")
	h.wait("tokens used (tier pro)")
}

// TestChatFocusComesBack: back on the Chat tab after esc (or /exit), the
// input has the focus, so q types a q; while it has, the footer lists no
// q quit nor ? help, and the focus shows (the input drawn dim without it).
func TestChatFocusComesBack(t *testing.T) {
	t.Parallel()
	h := start(t, tuitest.Server(t), "alice", 80, 24, Options{Tab: tabChat})
	h.wait("model ref-1 (default)", "used (pro)")
	if f := h.footer(); strings.Contains(f, "quit") || strings.Contains(f, "help") {
		t.Errorf("the input has the focus, yet the footer says: %q", f)
	}
	h.typeText("hello")
	h.keys("esc")
	h.wait("enter/i type a message")
	if f := h.footer(); !strings.Contains(f, "quit") {
		t.Errorf("out of the input, the footer lacks q quit: %q", f)
	}
	if !strings.Contains(h.screen(), h.app.ctx.Styles.Dim.Render("hello")) {
		t.Errorf("the input without the focus is not drawn dim:\n%q", h.screen())
	}
	h.keys("1")
	h.wait("alice/webapp")
	h.keys("5")
	h.typeText(" quick")
	h.wait("› hello quick")
	if strings.Contains(h.plain(), "Quit?") {
		t.Fatalf("q ran as a command:\n%s", h.plain())
	}
	if !strings.Contains(h.screen(), "quick"+h.app.ctx.Styles.Cursor.Render(" ")) {
		t.Errorf("the focused input shows no cursor:\n%q", h.screen())
	}
	// /exit goes back to the tab before; coming back, the focus is in.
	h.keys("ctrl+u")
	h.typeText("/exit")
	h.keys("enter")
	h.gone("Agent chat")
	h.keys("5")
	h.typeText("q")
	h.wait("› q")
}

// TestTabsKept: a pasted tab stays in a comment, and tab types one in a
// new issue's description (Go and Makefile indentation); both reach the
// service as typed.
func TestTabsKept(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	h := start(t, srv, "alice", 80, 24, Options{Tab: tabIssues, Repo: webapp})
	h.wait("Support graceful shutdown")
	h.keys("enter")
	h.wait("Support graceful shutdown #6")
	h.keys("c")
	h.wait("esc or ctrl+c hides")
	h.tm.Send(tea.PasteMsg{Content: "func f() {\n\treturn\n}"})
	h.wait("}")
	h.keys("ctrl+s")
	h.wait("Commented on #6.")

	h.keys("esc")
	h.wait("Open issues")
	h.keys("n")
	h.wait("New issue in alice/webapp")
	h.typeText("Makefile")
	h.keys("tab")
	h.typeText("all:")
	h.keys("enter", "tab")
	h.typeText("go build")
	h.keys("ctrl+s")
	h.wait("Makefile #")

	c := tuitest.Client(t, srv, "alice")
	is, err := c.Issues.Get(context.Background(), webapp, 6)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(is.CommentsList); n == 0 || is.CommentsList[n-1].Body != "func f() {\n\treturn\n}" {
		t.Errorf("the comment on the server: %+v", is.CommentsList)
	}
	found := false
	for i, err := range c.Issues.List(context.Background(), webapp, client.IssueListOptions{State: "open"}) {
		if err != nil {
			t.Fatal(err)
		}
		if i.Title == "Makefile" {
			found = true
			if i.Body != "all:\n\tgo build" {
				t.Errorf("the description on the server: %q", i.Body)
			}
		}
	}
	if !found {
		t.Error("the issue was not opened")
	}
}
