// Package repos holds the TUI's repository views: the list of your
// repositories with filter-as-you-type, and a repository's page with its
// issues, pull requests, releases, recent commits, files and
// collaborators.
package repos

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
)

// maxRepos caps the list: more than anyone scrolls through.
const maxRepos = 2000

type listMsg struct {
	owner, gen int
	repos      []*client.Repo
	err        error
}

// List is the caller's repositories (GET /repos): the Repos tab.
type List struct {
	ctx    *common.Context
	id     int
	table  *components.Table
	load   common.Load
	repos  []*client.Repo
	width  int
	height int
}

// NewList returns the repository list.
func NewList(ctx *common.Context) *List {
	l := &List{ctx: ctx, id: ctx.NewID()}
	l.table = components.NewTable(ctx,
		components.Column{Title: "NAME", Flex: 2, Min: 12},
		components.Column{Title: "", Width: 7},
		components.Column{Title: "DESCRIPTION", Flex: 3, Min: 8},
		components.Column{Title: "UPDATED", Width: 8, Right: true},
	)
	l.table.Empty = "No repositories yet: create one with `forge repo create NAME`."
	return l
}

func (l *List) Init() tea.Cmd { return l.fetch() }

// Refresh reloads the list.
func (l *List) Refresh() tea.Cmd { return l.fetch() }

func (l *List) fetch() tea.Cmd {
	c, err := l.ctx.REST()
	if err != nil {
		l.load.Fail(err)
		return nil
	}
	gen := l.load.Start()
	ctx, owner := l.ctx.Ctx, l.id
	return func() tea.Msg {
		repos, err := client.Collect(c.Repos.List(ctx, client.ListOptions{PerPage: 100}), maxRepos)
		return listMsg{owner: owner, gen: gen, repos: repos, err: err}
	}
}

func (l *List) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case listMsg:
		if msg.owner != l.id || !l.load.Finish(msg.gen, msg.err) {
			return nil
		}
		if msg.err != nil {
			return common.Error(msg.err)
		}
		l.repos = msg.repos
		l.setRows()
	case common.ThemeMsg:
		l.setRows()
	case tea.KeyPressMsg:
		if !l.table.Capturing() && key.Matches(msg, l.ctx.Keys.Open) {
			return l.open()
		}
		_, cmd := l.table.Update(msg)
		return cmd
	case tea.MouseWheelMsg, tea.PasteMsg:
		_, cmd := l.table.Update(msg)
		return cmd
	}
	return nil
}

// open shows the selected repository's page and makes it the current one.
func (l *List) open() tea.Cmd {
	i := l.table.SelectedIndex()
	if i < 0 {
		return nil
	}
	r := l.repos[i]
	name := r.RepoName()
	return tea.Batch(common.Push(NewPage(l.ctx, r)), func() tea.Msg { return common.RepoChosenMsg{Repo: name} })
}

func (l *List) setRows() {
	st := l.ctx.Styles
	now := l.ctx.Now()
	rows := make([]components.Row, len(l.repos))
	for i, r := range l.repos {
		vis := st.Dim.Render("public")
		if r.Private {
			vis = st.Warning.Render("private")
		}
		name := r.RepoName().String()
		rows[i] = components.Row{
			Key:   name,
			Cells: []string{st.Bold.Render(text.OneLine(name)), vis, text.OneLine(r.Description), st.Dim.Render(text.Since(r.UpdatedAt.Time, now))},
		}
	}
	l.table.SetRows(rows)
}

func (l *List) SetSize(width, height int) {
	l.width, l.height = width, height
	l.table.SetSize(width, height-1)
}

func (l *List) View() string {
	if !l.load.Done {
		return l.ctx.Placeholder(&l.load, "your repositories", l.width, l.height)
	}
	st := l.ctx.Styles
	head := st.Bold.Render("Your repositories") + st.Dim.Render(fmt.Sprintf(" · %s · enter opens · / filters", text.Plural(len(l.repos), "repository", "repositories")))
	if l.load.Busy {
		head += " " + st.Accent.Render(l.ctx.Spinner)
	}
	return common.Pad(head+"\n"+l.table.View(), l.width, l.height)
}

func (l *List) Title() string   { return "Repositories" }
func (l *List) Capturing() bool { return l.table.Capturing() }
func (l *List) CanGoBack() bool { return l.table.CanGoBack() }
func (l *List) Animating() bool { return l.load.Busy }

func (l *List) ShortHelp() []key.Binding {
	k := l.ctx.Keys
	return []key.Binding{k.Open, k.Filter, k.Refresh}
}

func (l *List) FullHelp() [][]key.Binding {
	k := l.ctx.Keys
	return [][]key.Binding{l.table.KeyHelp(), {k.Open, k.Refresh}}
}
