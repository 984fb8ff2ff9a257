// Package statusbar is the TUI's status line: each tab's latest notice or
// error, shown while that tab is in sight and cleared after a while, and
// the question asked before quitting with something unsent.
package statusbar

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
)

// For is how long a notice stays in the status line; errors stay twice
// as long.
const For = 6 * time.Second

// TabMsg is a notice of the views of one tab: it stays with that tab (a
// "Cancelled." from Images is not shown on Chat).
type TabMsg struct {
	Tab int
	common.StatusMsg
}

// clearMsg ends notice seq of a tab.
type clearMsg struct{ tab, seq int }

// notice is a tab's notice or error.
type notice struct {
	text string
	err  bool
	seq  int
}

// Bar is the status line's state.
type Bar struct {
	notices map[int]notice
	seq     int
	// ask is the question asked before quitting; "" when none is asked.
	ask string
}

// New returns an empty status line.
func New() *Bar { return &Bar{notices: map[int]notice{}} }

// FromTab makes the notices cmd produces belong to tab i, however deep
// in batches they come.
func FromTab(i int, cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		switch m := cmd().(type) {
		case common.StatusMsg:
			return TabMsg{Tab: i, StatusMsg: m}
		case tea.BatchMsg:
			for j := range m {
				m[j] = FromTab(i, m[j])
			}
			return m
		default:
			return m
		}
	}
}

// Set shows msg on tab: one line (a notice often quotes the server),
// sanitized, until the returned timer clears it; an empty one clears
// tab's notice at once.
func (b *Bar) Set(tab int, msg common.StatusMsg) tea.Cmd {
	if msg.Text == "" {
		b.Clear(tab)
		return nil
	}
	b.seq++
	b.notices[tab] = notice{text: text.OneLine(msg.Text), err: msg.Err, seq: b.seq}
	seq, d := b.seq, For
	if msg.Err {
		d *= 2
	}
	return tea.Tick(d, func(time.Time) tea.Msg { return clearMsg{tab, seq} })
}

// Clear takes tab's notice away at once (what it said no longer holds).
func (b *Bar) Clear(tab int) { delete(b.notices, tab) }

// Reset forgets every tab's notice (the tabs start afresh).
func (b *Bar) Reset() { b.notices = map[int]notice{} }

// Update takes the timers' messages; false for any other message.
func (b *Bar) Update(msg tea.Msg) bool {
	m, ok := msg.(clearMsg)
	if ok && b.notices[m.tab].seq == m.seq {
		delete(b.notices, m.tab)
	}
	return ok
}

// Text is tab's notice ("" when none), for tests and the frame.
func (b *Bar) Text(tab int) string { return b.notices[tab].text }

// Ask asks the quit question, naming what is kept unsent.
func (b *Bar) Ask(unsent []string) {
	b.ask = "Quit? Kept for your next forge tui: " + strings.Join(unsent, ", ") + "."
}

// Asking reports whether the quit question waits for its answer.
func (b *Bar) Asking() bool { return b.ask != "" }

// Answer takes the answer to the quit question: y, q or Ctrl-C again
// quits, any other key stays.
func (b *Bar) Answer(msg tea.KeyPressMsg) (quit bool) {
	b.ask = ""
	switch msg.String() {
	case "y", "Y", "q", "ctrl+c":
		return true
	}
	return false
}

// Lines draws tab's notice, or the quit question, wrapped to the width:
// an error is shown whole, never cut mid-sentence (up to half of most
// rows).
func (b *Bar) Lines(ctx *common.Context, tab, most int) []string {
	s := b.notices[tab]
	if s.text == "" && b.ask == "" {
		return nil
	}
	st := ctx.Styles
	mark, style, msg := st.Notice.Render(" ✓ "), lipgloss.NewStyle(), s.text
	switch {
	case b.ask != "":
		mark, style, msg = st.Warning.Render(" ? "), st.Warning, b.ask+" y quits, any other key stays"
	case s.err:
		mark, style = st.Error.Render(" ✗ "), st.Error
	}
	w := max(ctx.Width-3, 1)
	lines := common.Wrap(msg, w)
	if most = max(most/2, 1); len(lines) > most {
		lines = lines[:most]
		lines[most-1] = ansi.Truncate(lines[most-1], w-1, "") + "…"
	}
	for i, l := range lines {
		lead := "   "
		if i == 0 {
			lead = mark
		}
		lines[i] = common.Fit(lead+style.Render(l), ctx.Width)
	}
	return lines
}
