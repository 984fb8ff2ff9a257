// Package pulls is the page of one pull request: its description, its
// checks (the workflow runs of its head commit) and its diff (what its
// commits changed since they left the base branch).
package pulls

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/app/changes"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/ci"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
	"github.com/forgehq/forge/tui/diff"
)

// Page is a pull request's page: a SectionPage whose a asks the agent
// about the pull request (attached as pull:N: its fields, body and diff)
// where the section has no question of its own.
type Page struct {
	*components.SectionPage
	ctx  *common.Context
	repo client.RepoName
	pr   *client.PullRequest
}

// NewPage returns the page of pr in repo.
func NewPage(ctx *common.Context, repo client.RepoName, pr *client.PullRequest) *Page {
	header := func() string {
		st := ctx.Styles
		return State(ctx, pr) + st.Dim.Render(" · "+wants(pr))
	}
	desc := components.NewDoc(ctx, "Description", func(w int) []string { return Lines(ctx, pr, w) })
	changes := diff.NewPage(ctx, "Diff", func(cx context.Context, c *client.Client) (*diff.Change, error) {
		return read(cx, c, repo, pr)
	})
	changes.URL = pr.HTMLURL
	title := fmt.Sprintf("#%d %s", pr.Number, text.OneLine(pr.Title))
	return &Page{SectionPage: components.NewSectionPage(ctx, title, header, desc, ci.NewChecks(ctx, repo, pr.Head.SHA), changes),
		ctx: ctx, repo: repo, pr: pr}
}

func (p *Page) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, p.ctx.Keys.Ask) && !p.Capturing() {
		if _, runs := p.Active().(*ci.Runs); !runs {
			return p.ask()
		}
	}
	return p.SectionPage.Update(msg)
}

// ask attaches the pull request (its fields, body and diff) and names
// it in the message, ready to be finished.
func (p *Page) ask() tea.Cmd {
	prompt := fmt.Sprintf("About pull request #%d %q (%s into %s): ", p.pr.Number, text.OneLine(p.pr.Title), text.OneLine(p.pr.Head.Ref), text.OneLine(p.pr.Base.Ref))
	return common.AskAgent(p.repo, fmt.Sprintf("pull:%d", p.pr.Number), prompt)
}

// Link is the pull request's page, or the selected run's on Checks.
func (p *Page) Link() string {
	if l := p.SectionPage.Link(); l != "" {
		return l
	}
	return p.pr.HTMLURL
}

func (p *Page) ShortHelp() []key.Binding {
	if _, runs := p.Active().(*ci.Runs); runs {
		return p.SectionPage.ShortHelp()
	}
	return append([]key.Binding{p.ctx.Keys.Ask}, p.SectionPage.ShortHelp()...)
}

func (p *Page) FullHelp() [][]key.Binding {
	k := p.ctx.Keys
	return append(p.SectionPage.FullHelp(), []key.Binding{k.Ask, k.NextSection, k.PrevSection, k.Copy, k.Browse})
}

// State is the pull request's client.StateWord, coloured.
func State(ctx *common.Context, p *client.PullRequest) string {
	st := ctx.Styles
	w := p.StateWord()
	switch w {
	case "merged":
		return st.Accent.Render(w)
	case "closed":
		return st.Failure.Render(w)
	case "open":
		return st.Success.Render(w)
	}
	return st.Dim.Render(text.OneLine(w)) // draft, or the service's own word
}

// wants says who wants to merge which branch into which.
func wants(p *client.PullRequest) string {
	return fmt.Sprintf("%s wants to merge %s into %s", text.OneLine(p.User.Login), text.OneLine(p.Head.Ref), text.OneLine(p.Base.Ref))
}

// Lines is the description: title, state, branches, the body rendered.
func Lines(ctx *common.Context, p *client.PullRequest, w int) []string {
	st := ctx.Styles
	lines := []string{
		st.Bold.Render(text.OneLine(p.Title)) + st.Dim.Render(fmt.Sprintf(" #%d", p.Number)),
		State(ctx, p) + st.Dim.Render(" · "+wants(p)+" · opened "+text.Since(p.CreatedAt.Time, ctx.Now())),
		"",
	}
	if strings.TrimSpace(p.Body) == "" {
		return append(lines, st.Dim.Render("No description."))
	}
	return append(lines, ctx.Markdown(p.Body, w)...)
}

// read is what the pull request changed.
func read(ctx context.Context, c *client.Client, repo client.RepoName, pr *client.PullRequest) (*diff.Change, error) {
	files, diffs, err := changes.Pull(ctx, c, repo, pr)
	return &diff.Change{Files: files, Diffs: diffs}, err
}
