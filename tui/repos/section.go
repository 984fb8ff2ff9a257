package repos

import (
	"context"
	"iter"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
)

// sectionLimit caps what a section loads.
const sectionLimit = 500

type loadedMsg[T any] struct {
	owner, gen int
	items      []*T
	err        error
}

// section is a repository page's list of one kind of record (pull
// requests, releases, commits, collaborators): loaded with fetch, one row
// each, enter opening the record's page when open is set.
type section[T any] struct {
	ctx    *common.Context
	id     int
	title  string
	what   string // "pull requests", for "Loading pull requests…"
	repo   client.RepoName
	table  *components.Table
	load   common.Load
	items  []*T
	fetch  func(ctx context.Context, c *client.Client, repo client.RepoName) ([]*T, error)
	row    func(*T) components.Row
	open   func(*T) common.Component
	width  int
	height int
}

func newSection[T any](ctx *common.Context, repo client.RepoName, title, what string, cols ...components.Column) *section[T] {
	s := &section[T]{ctx: ctx, id: ctx.NewID(), title: title, what: what, repo: repo}
	s.table = components.NewTable(ctx, cols...)
	s.table.Empty = "No " + what + "."
	return s
}

func (s *section[T]) Init() tea.Cmd    { return s.reload() }
func (s *section[T]) Refresh() tea.Cmd { return s.reload() }

func (s *section[T]) reload() tea.Cmd {
	c, err := s.ctx.REST()
	if err != nil {
		s.load.Fail(err)
		return nil
	}
	gen := s.load.Start()
	ctx, repo, owner, fetch := s.ctx.Ctx, s.repo, s.id, s.fetch
	return func() tea.Msg {
		items, err := fetch(ctx, c, repo)
		return loadedMsg[T]{owner: owner, gen: gen, items: items, err: err}
	}
}

func (s *section[T]) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case loadedMsg[T]:
		if msg.owner != s.id || !s.load.Finish(msg.gen, msg.err) {
			return nil
		}
		if msg.err != nil {
			return common.Error(msg.err)
		}
		s.items = msg.items
		s.setRows()
	case common.ThemeMsg:
		s.setRows()
	case tea.KeyPressMsg:
		if s.open != nil && !s.table.Capturing() && key.Matches(msg, s.ctx.Keys.Open) {
			if i := s.table.SelectedIndex(); i >= 0 {
				return common.Push(s.open(s.items[i]))
			}
			return nil
		}
		_, cmd := s.table.Update(msg)
		return cmd
	case tea.MouseWheelMsg, tea.PasteMsg:
		_, cmd := s.table.Update(msg)
		return cmd
	}
	return nil
}

func (s *section[T]) setRows() {
	rows := make([]components.Row, len(s.items))
	for i, it := range s.items {
		rows[i] = s.row(it)
	}
	s.table.SetRows(rows)
}

func (s *section[T]) SetSize(width, height int) {
	s.width, s.height = width, height
	s.table.SetSize(width, height)
}

func (s *section[T]) View() string {
	if !s.load.Done {
		return s.ctx.Placeholder(&s.load, s.what, s.width, s.height)
	}
	return common.Pad(s.table.View(), s.width, s.height)
}

func (s *section[T]) Title() string   { return s.title }
func (s *section[T]) Capturing() bool { return s.table.Capturing() }
func (s *section[T]) CanGoBack() bool { return s.table.CanGoBack() }
func (s *section[T]) Animating() bool { return s.load.Busy }

func (s *section[T]) ShortHelp() []key.Binding {
	k := s.ctx.Keys
	if s.open == nil {
		return []key.Binding{k.Down, k.Filter, k.Refresh}
	}
	return []key.Binding{k.Open, k.Filter, k.Refresh}
}

func (s *section[T]) FullHelp() [][]key.Binding {
	k := s.ctx.Keys
	own := []key.Binding{k.Refresh}
	if s.open != nil {
		own = append([]key.Binding{k.Open}, own...)
	}
	return [][]key.Binding{s.table.KeyHelp(), own}
}

// collect is the fetch of a plain list endpoint.
func collect[T any](list func(ctx context.Context, c *client.Client, repo client.RepoName) iter.Seq2[*T, error]) func(context.Context, *client.Client, client.RepoName) ([]*T, error) {
	return func(ctx context.Context, c *client.Client, repo client.RepoName) ([]*T, error) {
		return client.Collect(list(ctx, c, repo), sectionLimit)
	}
}
