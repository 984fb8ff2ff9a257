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
	"github.com/forgehq/forge/tui/stack"
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

// newTabs are the program's tabs, none visited yet.
func newTabs() []*stack.Tab {
	return []*stack.Tab{
		{Name: "Repos", Root: func(ctx *common.Context) common.Component { return repos.NewList(ctx) }},
		{Name: "Issues", PerRepo: true, Root: func(ctx *common.Context) common.Component {
			if ctx.Repo.Name == "" {
				return newNoRepo(ctx, "Issues")
			}
			return issues.NewList(ctx, ctx.Repo)
		}},
		{Name: "CI", PerRepo: true, Root: func(ctx *common.Context) common.Component {
			if ctx.Repo.Name == "" {
				return newNoRepo(ctx, "CI runs")
			}
			return ci.NewRuns(ctx, ctx.Repo)
		}},
		{Name: "Images", Root: func(ctx *common.Context) common.Component { return images.NewCatalog(ctx) }},
		{Name: "Chat", Root: func(ctx *common.Context) common.Component { return chatview.New(ctx) }},
		{Name: "Account", Root: func(ctx *common.Context) common.Component { return account.New(ctx) }},
	}
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
