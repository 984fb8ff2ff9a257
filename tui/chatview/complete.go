package chatview

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/chat"
	"github.com/forgehq/forge/tui/common"
)

// completeMsg is what Tab may complete line to.
type completeMsg struct {
	owner int
	line  string
	cands []string
}

// completes reports whether Tab completes what is typed (a command)
// rather than going to the next tab.
func completes(line string) bool {
	return strings.HasPrefix(line, "/") && !strings.HasPrefix(line, "//")
}

// complete asks what Tab completes the command typed to (model names may
// need a request).
func (v *View) complete() tea.Cmd {
	s, ctx, owner, line := v.session, v.ctx.Ctx, v.id, v.input.Value()
	return func() tea.Msg { return completeMsg{owner: owner, line: line, cands: s.Complete(ctx, line)} }
}

// completed extends the input as far as the candidates agree, and shows
// the choices left in the status bar.
func (v *View) completed(msg completeMsg) tea.Cmd {
	line, choices, ok := chat.Completion(msg.line, msg.cands)
	v.choices = choices
	switch {
	case ok:
		v.input.SetValue(line)
	case len(msg.cands) == 0:
		return common.Status("Nothing to complete: tab completes a command or a model name.")
	}
	return nil
}

// help is /help's answer in the tab: the session's commands and the
// tab's own keys (not forge chat's).
func help() string {
	var b strings.Builder
	b.WriteString("Commands:\n")
	for _, c := range chat.Commands {
		h := c.Help
		if c.Name == "/exit" {
			h = "end the session: the conversation is forgotten and the tab shown before comes back"
		}
		fmt.Fprintf(&b, "  %-14s %s\n", strings.TrimSpace(c.Name+" "+c.Args), h)
	}
	b.WriteString("Keys:\n")
	for _, k := range [][2]string{
		{"enter", "send the message, or run the command"},
		{"alt+enter", "start a new line (also ctrl+j)"},
		{"tab", "complete a command or a model name; on other text, the next tab"},
		{"↑", "on an empty input, bring the last message back"},
		{"esc", "stop the reply; else leave the input (enter or i comes back)"},
		{"ctrl+c", "stop the reply; else quit (asks first, the conversation is kept)"},
		{"pgup/pgdn", "scroll the conversation"},
	} {
		fmt.Fprintf(&b, "  %-14s %s\n", k[0], k[1])
	}
	b.WriteString("A message starting with / is typed with //.")
	return b.String()
}
