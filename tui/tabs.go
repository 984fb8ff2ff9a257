package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/tui/account"
	"github.com/forgehq/forge/tui/chatview"
	"github.com/forgehq/forge/tui/ci"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/images"
	"github.com/forgehq/forge/tui/issues"
	"github.com/forgehq/forge/tui/repos"
)

// Tab numbers.
const (
	tabRepos = iota
	tabIssues
	tabCI
	tabImages
	tabChat
	tabAccount
)

// tab is one of the top-level tabs: a stack of components, the first made
// by root on the tab's first visit, the others opened on top of it (enter
// pushes, esc pops).
type tab struct {
	name  string
	root  func(ctx *common.Context) common.Component
	stack []common.Component
	// perRepo tabs show the current repository and start afresh when
	// another one is chosen.
	perRepo bool
	// status is the notice of the tab's views, shown while it is in sight.
	status status
}

func newTabs() []*tab {
	return []*tab{
		{name: "Repos", root: func(ctx *common.Context) common.Component { return repos.NewList(ctx) }},
		{name: "Issues", perRepo: true, root: func(ctx *common.Context) common.Component {
			if ctx.Repo.Name == "" {
				return newNoRepo(ctx, "Issues")
			}
			return issues.NewList(ctx, ctx.Repo)
		}},
		{name: "CI", perRepo: true, root: func(ctx *common.Context) common.Component {
			if ctx.Repo.Name == "" {
				return newNoRepo(ctx, "CI runs")
			}
			return ci.NewRuns(ctx, ctx.Repo)
		}},
		{name: "Images", root: func(ctx *common.Context) common.Component { return images.NewCatalog(ctx) }},
		{name: "Chat", root: func(ctx *common.Context) common.Component { return chatview.New(ctx) }},
		{name: "Account", root: func(ctx *common.Context) common.Component { return account.New(ctx) }},
	}
}

// top is the component in view on the tab.
func (t *tab) top() common.Component {
	if len(t.stack) == 0 {
		return nil
	}
	return t.stack[len(t.stack)-1]
}

// noRepo fills the Issues and CI tabs until a repository is chosen.
type noRepo struct {
	ctx           *common.Context
	what          string
	width, height int
}

func newNoRepo(ctx *common.Context, what string) *noRepo { return &noRepo{ctx: ctx, what: what} }

func (n *noRepo) Init() tea.Cmd             { return nil }
func (n *noRepo) Update(tea.Msg) tea.Cmd    { return nil }
func (n *noRepo) SetSize(w, h int)          { n.width, n.height = w, h }
func (n *noRepo) Title() string             { return n.what }
func (n *noRepo) ShortHelp() []key.Binding  { return []key.Binding{n.ctx.Keys.GotoTab} }
func (n *noRepo) FullHelp() [][]key.Binding { return nil }

func (n *noRepo) View() string {
	st := n.ctx.Styles
	text := st.Bold.Render("No repository chosen yet.") + "\n\n" +
		"The " + n.what + " shown here are the current repository's.\n" +
		"Open one in Repos: press 1, then enter on a repository,\n" +
		"or o and any repository's OWNER/NAME. Or start with\n" +
		st.Accent.Render("forge tui -R OWNER/REPO") + ", or from inside a clone."
	return common.Pad(text, n.width, n.height)
}
