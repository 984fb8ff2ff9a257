package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/tui/tuitest"
)

// TestLayoutAt60Columns: at 60 columns the tabs keep their names (the
// logo gives way), the footer ends with ? help and q quit, and a long
// issue title is cut from the right in the breadcrumb, the repository
// and the issue's number kept.
func TestLayoutAt60Columns(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	c := tuitest.Client(t, srv, "alice")
	long := "A very long title that says a great deal about what the issue is about"
	if _, err := c.Issues.Create(context.Background(), webapp, client.IssueCreate{Title: long}); err != nil {
		t.Fatal(err)
	}
	h := start(t, srv, "alice", 60, 20, Options{Repo: webapp, Tab: tabIssues})
	s := h.wait("Support graceful")
	lines := strings.Split(s, "\n")
	for _, want := range []string{"1 Repos", "2 Issues", "3 CI", "4 Images", "5 Chat", "6 Account"} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("the tab bar lacks %q: %q", want, lines[0])
		}
	}
	if f := h.footer(); !strings.HasSuffix(strings.TrimRight(f, " "), "? help · q quit") {
		t.Errorf("the footer: %q", f)
	}
	h.keys("enter")
	s = h.wait("opened by alice")
	crumb := strings.Split(s, "\n")[1]
	if !strings.HasPrefix(crumb, " alice/webapp › Issues › #7 A very long") || !strings.HasSuffix(strings.TrimRight(crumb, " "), "…") {
		t.Errorf("the breadcrumb: %q", crumb)
	}
}

// TestQuestionsSitAtTheBottom: the cancel-run question is asked on the
// view's last line, where closing an issue asks.
func TestQuestionsSitAtTheBottom(t *testing.T) {
	t.Parallel()
	h := start(t, tuitest.Server(t), "alice", 80, 24, Options{Repo: webapp, Tab: tabCI})
	h.wait("CI on slog", "3 unfinished")
	h.keys("x")
	s := h.wait("Cancel run")
	lines := strings.Split(s, "\n")
	if !strings.Contains(lines[len(lines)-3], "Cancel run") {
		t.Errorf("the cancel question is not on the view's last line:\n%s", s)
	}
	h.keys("n")
	h.gone("Cancel run")
	h.keys("2")
	h.wait("Support graceful shutdown")
	h.keys("enter")
	h.wait("Support graceful shutdown #6")
	h.keys("x")
	s = h.wait("Close #6")
	lines = strings.Split(s, "\n")
	if !strings.Contains(lines[len(lines)-3], "Close #6") {
		t.Errorf("the close question is not on the view's last line:\n%s", s)
	}
}
