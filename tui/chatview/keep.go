package chatview

import (
	"net/url"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/chat"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
)

// kept is what the chat keeps across launches (common.Keep): the
// conversation as the agent has it and as the tab shows it, the model,
// and the messages for the up arrow. The input not yet sent is kept on
// its own, as it changes with every key.
type kept struct {
	Model   string         `json:"model,omitempty"`
	History []chat.Message `json:"history,omitempty"`
	Entries []keptEntry    `json:"entries,omitempty"`
	Sent    []string       `json:"sent,omitempty"`
}

type keptEntry struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// keepState is what was last kept, to keep only changes.
type keepState struct {
	name    string // the conversation's name in the keep: one per agent
	what    string // and what it is, said for people
	input   string
	entries int
	model   string
	history []chat.Message // as it was when no turn ran
}

// lastSession is the note that a conversation was restored.
const lastSession = "This is the conversation of your last session; /reset forgets it."

// restore brings back the conversation and the input of the last launch.
func (v *View) restore() {
	v.keep.what = "the chat conversation"
	if s, err := v.ctx.Settings(); err == nil {
		v.keep.name = "chat\n" + s.AgentURL
		// Said with its agent: one kept with another (a profile's agent
		// moved) is not the one this tab shows.
		if u, err := url.Parse(s.AgentURL); err == nil && u.Host != "" {
			v.keep.what += " with " + text.OneLine(u.Host)
		}
	}
	var k kept
	var unanswered string
	if v.ctx.Keep.Load(v.keep.name, &k) && len(k.Entries) > 0 {
		v.session.Model, v.session.History = k.Model, k.History
		v.model, v.sent = k.Model, k.Sent
		v.entries = v.entries[:0]
		for _, e := range k.Entries {
			if e != (keptEntry{"note", lastSession}) {
				v.entries = append(v.entries, entry{e.Kind, e.Text})
			}
		}
		// forge ended while a message waited for its reply: the message
		// comes back to the input, to send again.
		if last := v.entries[len(v.entries)-1]; last.kind == "user" && !chat.IsCommand(last.text) {
			unanswered = last.text
			v.entries = v.entries[:len(v.entries)-1]
		}
		v.entries = append(v.entries, entry{"note", lastSession})
		v.stale = true
	}
	var input string
	if v.ctx.Keep.Load(v.keep.name+"\ninput", &input) {
		v.input.SetValue(input)
	}
	if unanswered != "" && v.input.Value() == "" {
		v.input.SetValue(unanswered)
	}
	v.review = strings.TrimSpace(v.input.Value()) != ""
	v.keep.input, v.keep.entries, v.keep.model = v.input.Value(), len(v.entries), v.model
	v.keep.history = slices.Clone(v.session.History)
}

// persist keeps the input when it changed, and the conversation when it
// did. While a turn or a command runs, the session is theirs to change:
// a command's effect is kept once it is done, a message sent at once
// with the history as it was before it.
func (v *View) persist() tea.Cmd {
	if v.session == nil {
		return nil
	}
	var cmds []tea.Cmd
	if in := v.input.Value(); in != v.keep.input {
		v.keep.input = in
		var val any
		if in != "" {
			val = in
		}
		cmds = append(cmds, common.Error(v.ctx.Keep.Save(v.keep.name+"\ninput", "the chat message you typed", val)))
	}
	if v.busy != "command" && (len(v.entries) != v.keep.entries || v.model != v.keep.model) {
		v.keep.entries, v.keep.model = len(v.entries), v.model
		if v.busy == "" {
			v.keep.history = slices.Clone(v.session.History)
		}
		var val any
		if v.conversing() {
			k := kept{Model: v.model, History: v.keep.history, Sent: v.sent}
			for _, e := range v.entries {
				k.Entries = append(k.Entries, keptEntry{e.kind, e.text})
			}
			val = k
		}
		cmds = append(cmds, common.Error(v.ctx.Keep.Save(v.keep.name, v.keep.what, val)))
	}
	return tea.Batch(cmds...)
}

// conversing reports whether anything was said or asked in the session.
func (v *View) conversing() bool {
	for _, e := range v.entries {
		if e.kind == "user" {
			return true
		}
	}
	return false
}

// Interrupt: Ctrl-C stops a streaming reply, as in forge chat.
func (v *View) Interrupt() (tea.Cmd, bool) {
	if v.busy != "reply" {
		return nil, false
	}
	v.cancel()
	return nil, true
}

// Unsent names the conversation and the typed message, which quitting
// keeps for the next launch.
func (v *View) Unsent() string {
	if v.session == nil {
		return ""
	}
	var parts []string
	if v.conversing() {
		parts = append(parts, "the chat conversation")
	}
	if strings.TrimSpace(v.input.Value()) != "" {
		parts = append(parts, "the chat message you typed")
	}
	return strings.Join(parts, " and ")
}
