package tui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/tui/tuitest"
)

// TestIssueTitleLength: the form counts a title in characters, as the
// service does: 120 CJK characters (360 bytes) are opened; 300 Latin ones
// are all kept in the form, which says they are too many and sends
// nothing.
func TestIssueTitleLength(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	h := start(t, srv, "alice", 100, 24, Options{Tab: tabIssues, Repo: webapp})
	h.wait("Support graceful shutdown")
	h.keys("n")
	h.wait("New issue in alice/webapp")
	cjk := strings.Repeat("漢", 120)
	h.tm.Send(tea.PasteMsg{Content: cjk})
	h.keys("ctrl+s")
	h.wait("#7", "opened by alice")

	h.keys("esc")
	h.wait("Open issues")
	h.keys("n")
	h.wait("New issue in alice/webapp")
	long := strings.Repeat("a", 299) + "Z"
	h.tm.Send(tea.PasteMsg{Content: long})
	h.wait("300 characters, at most 256")
	h.keys("ctrl+s")
	h.wait("the title is 300 characters; the service takes at most 256")
	// Nothing was cut: the end of what was pasted is still there.
	h.wait("aaaZ")

	c := tuitest.Client(t, srv, "alice")
	var titles []string
	for is, err := range c.Issues.List(context.Background(), webapp, client.IssueListOptions{State: "all"}) {
		if err != nil {
			t.Fatal(err)
		}
		titles = append(titles, is.Title)
	}
	if !strings.Contains(strings.Join(titles, "\n"), cjk) {
		t.Error("the CJK title was not opened")
	}
	for _, ti := range titles {
		if strings.HasPrefix(ti, "aaaa") {
			t.Errorf("a cut title was sent: %d characters", len(ti))
		}
	}
}
