package tui

import (
	"testing"

	"github.com/forgehq/forge/tui/tuitest"
)

// TestAskFromAnIssue: a on an issue's page opens the Chat tab with the
// issue attached, and the help of the page offers the key.
func TestAskFromAnIssue(t *testing.T) {
	t.Parallel()
	h := start(t, tuitest.Server(t), "alice", 100, 30, Options{Repo: tuitest.Webapp, Tab: tabIssues})
	h.wait("#6", "Support graceful shutdown")
	h.keys("enter")
	h.wait("Support graceful shutdown #6", "a ask the agent")
	h.keys("a")
	h.wait("Agent chat", "Attached issue:6 (Issue #6 in alice/webapp: Support graceful shutdown")
}

// TestAskFromAPullRequest: a on a pull request's page opens the Chat tab
// with the pull request attached: its fields and its diff.
func TestAskFromAPullRequest(t *testing.T) {
	t.Parallel()
	h := start(t, tuitest.Server(t), "alice", 160, 30, Options{})
	openFromWebapp(h, 1, "Structured logging with slog", "slog") // Pull requests
	h.wait("Structured logging with slog #3", "a ask the agent")
	h.keys("a")
	h.wait("Agent chat", "Attached pull:3 (Pull request #3 in alice/webapp: Structured logging with slog")
	// The reference agent names the last line it got: the diff's (the
	// one line the branch adds, to CHANGES/slog.md).
	h.keys("enter")
	h.wait("You attached pull:3 (Pull request #3 in alice/webapp: Structured logging with slog):", "ending with +Structured logging with slog.")
}

// TestAskFromAFile: a on a file's preview opens the Chat tab with the
// file attached.
func TestAskFromAFile(t *testing.T) {
	t.Parallel()
	h := start(t, tuitest.Server(t), "alice", 100, 30, Options{})
	openFromWebapp(h, 4, "README.md", "README") // Files
	h.wait("README.md ·", "a ask the agent")
	h.keys("a")
	h.wait("Agent chat", "Attached file:README.md")
}

// openFromWebapp opens alice/webapp's page, moves right to its section
// (0 is Issues), waits for shown there, filters the list by filter and
// opens the record it leaves.
func openFromWebapp(h *harness, section int, shown, filter string) {
	h.t.Helper()
	h.wait("alice/webapp")
	h.keys("enter")
	h.wait("Repositories › alice/webapp")
	for range section {
		h.keys("right")
	}
	h.wait(shown)
	h.keys("/")
	for _, r := range filter {
		h.keys(string(r))
	}
	h.keys("enter", "enter")
}
