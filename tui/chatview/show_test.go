package chatview

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/internal/markdown"
)

// TestMultiLineMessageShownAsLines: a message of several lines is drawn
// as its lines, not with a ^J between them.
func TestMultiLineMessageShownAsLines(t *testing.T) {
	t.Parallel()
	_, _, d := driveChat(t, 80, 30)
	d.Send(tea.PasteMsg{Content: "first line\nsecond line"})
	d.Key("enter")
	view := d.UntilView("You asked about first line second line")
	var lines []string
	for _, l := range strings.Split(view, "\n") {
		lines = append(lines, strings.TrimRight(l, " "))
	}
	if strings.Contains(view, "^J") || !strings.Contains(strings.Join(lines, "\n"), "› first line\n  second line\n") {
		t.Errorf("the message is not drawn as its lines:\n%s", view)
	}
}

// TestHelpIsTheTabs: /help in the tab lists the tab's keys, not forge
// chat's (no \ continuation, no Ctrl-D).
func TestHelpIsTheTabs(t *testing.T) {
	t.Parallel()
	_, _, d := driveChat(t, 100, 40)
	d.Type("/help")
	d.Key("enter")
	view := d.UntilView("alt+enter", "start a new line (also ctrl+j)", "/model [NAME]", "ctrl+c")
	for _, not := range []string{`\ to continue`, "Ctrl-D", "End a line with"} {
		if strings.Contains(view, not) {
			t.Errorf("/help speaks of forge chat's %q:\n%s", not, view)
		}
	}
}

// TestErrorShownWhole: a long error in the conversation wraps; its end
// is on the screen.
func TestErrorShownWhole(t *testing.T) {
	t.Parallel()
	_, v, d := driveChat(t, 60, 20)
	v.turn = 1
	v.busy = "reply"
	v.streamed = &lineSink{}
	v.stream = markdown.NewStream(v.streamed, v.mdOptions())
	d.Send(turnDoneMsg{owner: v.id, turn: 1, err: errors.New("the agent key's token quota is used up; it resets at 2026-12-01 00:00 UTC, in 10 days (see /usage)")})
	d.UntilView("✗ the agent key's token quota is used up; it resets at", "2026-12-01 00:00 UTC, in 10 days (see /usage)")
}

// TestFooterAfterStop: once a reply is stopped, the footer no longer
// shows the tokens of the reply before.
func TestFooterAfterStop(t *testing.T) {
	t.Parallel()
	srv, _, d := driveChat(t, 80, 20)
	d.Type("Hello")
	d.Key("enter")
	d.UntilView("reply 130 tokens")
	defer srv.Agent().HoldAfter(3)() // esc comes in the middle of the reply
	d.Type("More")
	d.Key("enter")
	d.UntilView("replying · esc stops")
	d.Key("esc")
	view := d.UntilView("(reply interrupted")
	if strings.Contains(view, "reply 130 tokens") {
		t.Errorf("the footer shows the last reply's tokens:\n%s", view)
	}
}

// TestTabCompletes: Tab on a command completes it, and lists the
// choices when several are left; on a message it goes to the next tab.
func TestTabCompletes(t *testing.T) {
	t.Parallel()
	_, v, d := driveChat(t, 80, 20)
	d.Type("/")
	d.Key("tab")
	d.UntilView("tab: /help  /model  /usage  /with  /context  /reset  /exit")
	d.Type("mo")
	d.Key("tab")
	d.Until("/model completed", func() bool { return v.input.Value() == "/model " })
	d.Type("r")
	d.Key("tab")
	d.UntilView("tab: ref-1  ref-1-mini")
	if v.input.Value() != "/model ref-1" {
		t.Errorf("input %q", v.input.Value())
	}
}

// TestNoteKeepsDatesWhole: a command's answer wraps at spaces, never
// inside a date.
func TestNoteKeepsDatesWhole(t *testing.T) {
	t.Parallel()
	_, v, d := driveChat(t, 40, 30)
	v.entries = append(v.entries, entry{"note", "The quota resets at 2026-12-01T00:00:00Z, in 10 days."})
	v.stale = true
	view := d.UntilView("2026-12-01T00:00:00Z,")
	if strings.Contains(view, "2026-\n") {
		t.Errorf("a date cut:\n%s", view)
	}
}
