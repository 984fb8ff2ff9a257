package tui

import (
	"strings"
	"testing"

	"github.com/forgehq/forge/tui/tuitest"
)

// TestHelpScrolls: at 80×24 the chat's help is taller than the
// terminal: it says so, j scrolls it down to its last key, and any other
// key closes it.
func TestHelpScrolls(t *testing.T) {
	t.Parallel()
	h := start(t, tuitest.Server(t), "alice", 80, 24, Options{Tab: tabChat})
	h.wait("model ref-1 (default)")
	h.keys("esc", "?")
	s := h.wait("Keys: Agent chat", "↓/j more")
	if strings.Contains(s, "stop a reply, or quit") {
		t.Fatalf("the box fits; the test needs one that does not:\n%s", s)
	}
	for range 30 {
		h.keys("j")
	}
	s = h.wait("Keys: Agent chat", "stop a reply, or quit", "↑/k back")
	if strings.Contains(s, "send") && strings.Contains(s, "enter   send") {
		t.Errorf("scrolled to the end, the first key still shows:\n%s", s)
	}
	h.keys("x")
	h.gone("Keys: Agent chat")
}
