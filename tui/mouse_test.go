package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/tui/tuitest"
)

// at is the cell of the screen where text starts, or fails the test.
func (h *harness) at(text string) (x, y int) {
	h.t.Helper()
	for y, l := range strings.Split(h.plain(), "\n") {
		if i := strings.Index(l, text); i >= 0 {
			return len([]rune(l[:i])), y
		}
	}
	h.t.Fatalf("%q is not on the screen:\n%s", text, h.plain())
	return 0, 0
}

func (h *harness) click(text string, mod tea.KeyMod) {
	h.t.Helper()
	x, y := h.at(text)
	h.tm.Send(tea.MouseClickMsg{X: x + 1, Y: y, Button: tea.MouseLeft, Mod: mod})
}

// TestMouseClicks: a click on a tab switches to it; on a row selects it,
// and a second click opens it; on a section's name shows it. A click with
// Shift is the terminal's own selection: forge ignores it.
func TestMouseClicks(t *testing.T) {
	t.Parallel()
	h := start(t, tuitest.Server(t), "alice", 100, 24, Options{Repo: webapp})
	h.wait("alice/webapp", "alice/infra")
	h.click("2 Issues", 0)
	h.wait("Open issues", "#3 Add a health check endpoint")

	h.click("Add a health check", tea.ModShift)
	h.settled()
	if _, y := h.at("Add a health check"); strings.Contains(strings.Split(h.plain(), "\n")[y], "▌") {
		t.Errorf("a shift-click selected the row")
	}
	h.click("Add a health check", 0)
	h.settled()
	if _, y := h.at("Add a health check"); !strings.Contains(strings.Split(h.plain(), "\n")[y], "▌") {
		t.Errorf("the row clicked is not selected:\n%s", h.plain())
	}
	h.click("Add a health check", 0)
	h.wait("#3 Add a health check endpoint", "should answer 200 when the database is reachable")

	h.click("1 Repos", 0)
	h.wait("alice/infra")
	h.keys("enter")
	h.wait("Pull requests", "Releases")
	h.click("Releases", 0)
	h.wait("PUBLISHED", "v0.2.0")
}
