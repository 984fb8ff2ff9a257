// Package repos holds the TUI's repository views: the list of your
// repositories with filter-as-you-type, and a repository's page with its
// issues, pull requests, releases, recent commits, files and
// collaborators.
package repos

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
)

// maxRepos caps the list: more than anyone scrolls through.
const maxRepos = 2000

// List is the caller's repositories (GET /repos): the Repos tab.
type List struct {
	*components.List[*client.Repo]
	ctx    *common.Context
	byName *byName
}

// NewList returns the repository list.
func NewList(ctx *common.Context) *List {
	l := &List{ctx: ctx, byName: newByName(ctx), List: components.NewList[*client.Repo](ctx, "Repositories", "your repositories",
		components.Column{Title: "NAME", Flex: 2, Min: 12},
		components.Column{Title: "VISIBILITY", Width: 10},
		components.Column{Title: "DESCRIPTION", Flex: 3, Min: 8},
		components.Column{Title: "UPDATED", Width: 8, Right: true},
	)}
	l.Table().Empty = "No repositories yet: create one with `forge repo create NAME`."
	l.Fetch = components.REST(ctx, func(cx context.Context, c *client.Client) ([]*client.Repo, error) {
		return client.Collect(c.Repos.List(cx, client.ListOptions{PerPage: 100}), maxRepos)
	})
	l.Row = l.row
	l.Open = l.open
	l.PageOf = func(r *client.Repo) string { return r.HTMLURL }
	l.Saved = ctx.Filters["repos"]
	l.Head, l.HeadLines = l.head, 1
	l.Keys = []key.Binding{l.byName.key}
	return l
}

func (l *List) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case namedMsg:
		if msg.owner == l.ID() {
			return l.byName.answered(msg, l.open)
		}
		return nil
	case tea.KeyPressMsg, tea.PasteMsg:
		if l.byName.active {
			return l.byName.update(msg, l.ID())
		}
		if k, ok := msg.(tea.KeyPressMsg); ok && !l.List.Capturing() && key.Matches(k, l.byName.key) {
			l.byName.start()
			return nil
		}
	}
	return l.List.Update(msg)
}

// View is the list, its last line the input of o while it is open.
func (l *List) View() string {
	v := l.List.View()
	if !l.byName.active {
		return v
	}
	lines := strings.Split(v, "\n")
	lines[len(lines)-1] = l.byName.view(l.Width())
	return strings.Join(lines, "\n")
}

func (l *List) Capturing() bool { return l.byName.active || l.List.Capturing() }
func (l *List) CanGoBack() bool { return l.byName.active || l.List.CanGoBack() }
func (l *List) Animating() bool { return l.byName.busy || l.List.Animating() }

func (l *List) ShortHelp() []key.Binding {
	if l.byName.active {
		return l.byName.help()
	}
	return l.List.ShortHelp()
}

// open shows the repository's page and makes it the current one.
func (l *List) open(r *client.Repo) tea.Cmd {
	name := r.RepoName()
	return tea.Batch(common.Push(NewPage(l.ctx, r)), func() tea.Msg { return common.RepoChosenMsg{Repo: name} })
}

func (l *List) row(r *client.Repo) components.Row {
	st := l.ctx.Styles
	vis := st.Dim.Render("public")
	if r.Private {
		vis = st.Warning.Render("private")
	}
	name := r.RepoName().String()
	return components.Row{
		Key:   name,
		Cells: []string{st.Bold.Render(text.OneLine(name)), vis, text.OneLine(r.Description), st.Dim.Render(text.Since(r.UpdatedAt.Time, l.ctx.Now()))},
	}
}

func (l *List) head() string {
	st := l.ctx.Styles
	head := st.Bold.Render("Your repositories") + st.Dim.Render(fmt.Sprintf(" · %s · enter opens · / filters", text.Plural(len(l.Items()), "repository", "repositories")))
	if l.Loading() {
		head += " " + st.Accent.Render(l.ctx.Spinner)
	}
	return head
}
