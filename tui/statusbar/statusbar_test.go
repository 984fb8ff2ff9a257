package statusbar

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/tui/common"
)

func TestNoticesStayWithTheirTab(t *testing.T) {
	b := New()
	b.Set(1, common.StatusMsg{Text: "Cancelled.\x1b[2J"})
	// Sanitized: the escape is shown, not sent to the terminal.
	if !strings.HasPrefix(b.Text(1), "Cancelled.") || strings.Contains(b.Text(1), "\x1b") || b.Text(0) != "" {
		t.Fatalf("tab 1 %q, tab 0 %q", b.Text(1), b.Text(0))
	}
	b.Set(1, common.StatusMsg{Text: "Later."})
	// The first notice's timer (its clearMsg, as the tick sends it after
	// For) does not clear the later one.
	if !b.Update(clearMsg{tab: 1, seq: 1}) || b.Text(1) != "Later." {
		t.Errorf("the first timer cleared %q", b.Text(1))
	}
	if b.Set(1, common.StatusMsg{}) != nil || b.Text(1) != "" {
		t.Errorf("an empty notice did not clear the tab: %q", b.Text(1))
	}
	if b.Update(tea.KeyPressMsg{}) {
		t.Error("a key was taken for a timer")
	}
}

func TestFromTabTagsBatches(t *testing.T) {
	cmd := FromTab(3, tea.Batch(common.Status("a"), common.Status("b")))
	for _, c := range cmd().(tea.BatchMsg) {
		if m, ok := c().(TabMsg); !ok || m.Tab != 3 {
			t.Errorf("not tagged with tab 3: %#v", m)
		}
	}
}

func TestQuitQuestion(t *testing.T) {
	b := New()
	b.Ask([]string{"the chat message you typed"})
	ctx := &common.Context{Width: 80, Height: 24, Styles: common.NewStyles(false, true)}
	if l := strings.Join(b.Lines(ctx, 0, 20), "\n"); !strings.Contains(l, "Quit? Kept for your next forge tui: the chat message you typed. y quits") {
		t.Errorf("the question: %q", l)
	}
	if b.Answer(tea.KeyPressMsg{Code: 'n', Text: "n"}) || b.Asking() {
		t.Error("n quit, or the question stayed")
	}
	b.Ask([]string{"x"})
	if !b.Answer(tea.KeyPressMsg{Code: 'y', Text: "y"}) {
		t.Error("y did not quit")
	}
}
