package chatview

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
)

func keyCopyReply() key.Binding { return common.Binding("y", "copy the last reply", "y") }
func keyCopyCode() key.Binding  { return common.Binding("Y", "copy its last code block", "Y") }

// copyReply copies the last reply as the agent wrote it (markdown), or
// its last fenced code block. What the agent sent is cleaned of anything
// a terminal would act on, for it will be pasted into one.
func (v *View) copyReply(code bool) tea.Cmd {
	reply := ""
	for i := len(v.entries) - 1; i >= 0 && reply == ""; i-- {
		if v.entries[i].kind == "agent" {
			reply = v.entries[i].text
		}
	}
	if reply == "" {
		return common.Status("No reply to copy yet.")
	}
	if !code {
		return common.Copy(text.Sanitize(reply), "the last reply")
	}
	block, ok := common.LastCodeBlock(reply)
	if !ok {
		return common.Status("The last reply has no code block; y copies all of it.")
	}
	return common.Copy(text.Sanitize(block), "the code block")
}
