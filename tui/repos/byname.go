package repos

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
)

// The repos list's o opens a repository by OWNER/NAME: anyone's the
// service lets the user see (a public one they do not own), not only
// those GET /repos lists.

// namedMsg is the answer to GET /repos/{owner}/{repo} for o.
type namedMsg struct {
	owner int
	name  client.RepoName
	repo  *client.Repo
	err   error
}

// byName is the one-line input of o.
type byName struct {
	ctx    *common.Context
	input  *components.Editor
	active bool
	busy   bool
	key    key.Binding
}

func newByName(ctx *common.Context) *byName {
	b := &byName{ctx: ctx, input: components.NewEditor(ctx, false), key: common.Binding("o", "open by name", "o")}
	b.input.Prompt = "Open OWNER/NAME: "
	b.input.Placeholder = "any repository you may see, as alice/webapp"
	return b
}

// start shows the input.
func (b *byName) start() {
	b.active = true
	b.input.Focus()
}

// stop hides the input, forgetting what was typed: the next o starts
// afresh.
func (b *byName) stop() {
	b.active = false
	b.input.Blur()
	b.input.Reset()
}

// update takes a key while the input is shown; owner is the list's ID.
func (b *byName) update(msg tea.Msg, owner int) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		b.input.Update(msg)
		return nil
	}
	switch k.String() {
	case "esc":
		b.stop()
		return nil
	case "enter":
		return b.send(owner)
	}
	if !b.busy {
		b.input.Update(msg)
	}
	return nil
}

func (b *byName) send(owner int) tea.Cmd {
	if b.busy {
		return nil
	}
	name, err := client.ParseRepoName(strings.TrimPrefix(strings.TrimSpace(b.input.Value()), "/"))
	if err != nil {
		return common.Error(err)
	}
	c, err := b.ctx.REST()
	if err != nil {
		return common.Error(err)
	}
	b.busy = true
	ctx := b.ctx.Ctx
	return func() tea.Msg {
		r, err := c.Repos.Get(ctx, name)
		return namedMsg{owner: owner, name: name, repo: r, err: err}
	}
}

// answered opens the repository found, or says why not; the input stays
// for another try.
func (b *byName) answered(msg namedMsg, open func(*client.Repo) tea.Cmd) tea.Cmd {
	b.busy = false
	if msg.err != nil {
		var apiErr *client.Error
		if errors.As(msg.err, &apiErr) && apiErr.StatusCode == http.StatusNotFound {
			return common.Error(fmt.Errorf("%s: no such repository, or not one you may see", msg.name))
		}
		return common.Error(msg.err)
	}
	b.stop()
	// An earlier try's error no longer holds.
	return tea.Batch(common.ClearStatus(), open(msg.repo))
}

// view is the input's line.
func (b *byName) view(width int) string {
	b.input.SetWidth(width)
	if b.busy {
		return common.Fit(b.ctx.Styles.Accent.Render(b.ctx.Spinner)+" Looking for "+b.input.Value()+"…", width)
	}
	return b.input.View()
}

func (b *byName) help() []key.Binding {
	return []key.Binding{common.Binding("enter", "open", "enter"), common.Binding("esc", "cancel", "esc")}
}
