package components

import (
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
)

// Confirm asks a yes/no question on one line before something that cannot
// be undone (deleting a key or an image). y runs the action; n, esc or any
// other key drops it. No is the default.
type Confirm struct {
	ctx      *common.Context
	question string
	yes      tea.Cmd
}

// NewConfirm returns an idle question.
func NewConfirm(ctx *common.Context) *Confirm { return &Confirm{ctx: ctx} }

// Ask poses question; yes runs on y.
func (c *Confirm) Ask(question string, yes tea.Cmd) {
	c.question, c.yes = question, yes
}

// Active reports whether a question waits for its answer.
func (c *Confirm) Active() bool { return c.question != "" }

// Update takes the answer.
func (c *Confirm) Update(msg tea.KeyPressMsg) tea.Cmd {
	yes := c.yes
	c.question, c.yes = "", nil
	switch msg.String() {
	case "y", "Y":
		return yes
	}
	return common.Status("Cancelled.")
}

// View draws the question.
func (c *Confirm) View(width int) string {
	st := c.ctx.Styles
	q := text.OneLine(c.question) // it may quote the server's names
	if ansi.StringWidth(q) > width-6 {
		q = ansi.Truncate(q, max(width-6, 1), "…")
	}
	return common.Fit(st.Warning.Render(q)+" "+st.Bold.Render("[y/N]"), width)
}
