package chatview

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/app/agentctx"
	"github.com/forgehq/forge/chat"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
)

// errNoRepo: /with resolves a REF in the current repository.
var errNoRepo = errors.New("no repository chosen yet: /with attaches from the current repository; open one in Repos (1, then enter) or start with forge tui -R OWNER/REPO")

// newSession is a session of c with the budget `forge chat` has: the
// profile's per-message cap on attached context (the key's remaining
// quota caps it too, in the session).
func (v *View) newSession(c *chat.Client) *chat.Session {
	s := &chat.Session{Client: c, ContextLimit: chat.DefaultContextLimit}
	if set, err := v.ctx.Settings(); err == nil {
		if cf, err := v.ctx.Factory.ConfigFile(); err == nil {
			if n, err := agentctx.ProfileLimit(cf, set.Profile); err == nil {
				s.ContextLimit = n
			} else {
				v.entries = append(v.entries, entry{"error", text.ErrorText(err) + "; using " + chat.Thousands(chat.DefaultContextLimit) + " tokens"})
			}
		}
	}
	return s
}

// attacher makes attachments of REFs in repo from the service's data,
// redacted, as `forge chat --with` does.
func (v *View) attacher(repo client.RepoName) chat.AttachFunc {
	ctx := v.ctx
	return func(cx context.Context, ref string) (*chat.Attachment, error) {
		if _, err := agentctx.ParseRef(ref); err != nil {
			return nil, err
		}
		if repo.Name == "" {
			return nil, errNoRepo
		}
		c, err := ctx.REST()
		if err != nil {
			return nil, err
		}
		return agentctx.Build(cx, c, repo, ref, agentctx.Options{Redactor: ctx.Factory.Redactor()})
	}
}

// ask attaches what another view was showing (its ask key): the
// attachment is built in the background; the input gets the focus, and
// the view's suggested question if nothing is typed there.
func (v *View) ask(msg common.AskAgentMsg) tea.Cmd {
	if v.session == nil {
		return nil // the view says the agent is not configured
	}
	if v.busy != "" {
		return common.Status("Wait for the " + v.busy + " to finish (esc stops a reply), then ask again.")
	}
	v.input.Focus()
	if v.input.Value() == "" {
		v.input.SetValue(msg.Prompt)
	}
	v.busy = "attachment"
	v.entries = append(v.entries, entry{"note", "Attaching " + text.OneLine(msg.Ref) + " of " + text.OneLine(msg.Repo.String()) + "…"})
	v.stale = true
	attach, ctx, owner, ref := v.attacher(msg.Repo), v.ctx.Ctx, v.id, msg.Ref
	return func() tea.Msg {
		a, err := attach(ctx, ref)
		return attachedMsg{owner: owner, att: a, err: err}
	}
}

// attached queues the attachment for the next message; what it says
// takes the place of the "Attaching…" note.
func (v *View) attached(msg attachedMsg) tea.Cmd {
	v.busy = ""
	v.stale = true
	if n := len(v.entries); n > 0 && strings.HasPrefix(v.entries[n-1].text, "Attaching ") {
		v.entries = v.entries[:n-1]
	}
	if msg.err != nil {
		v.entries = append(v.entries, entry{"error", text.ErrorText(msg.err)})
		return nil
	}
	a := msg.att
	v.session.AttachContext(a)
	v.entries = append(v.entries, entry{"note", fmt.Sprintf("Attached %s (%s, about %s tokens); it goes with your next message.",
		a.Ref, a.Title, chat.Thousands(a.Tokens()))})
	return nil
}
