// Package images holds the TUI's container registry views: the
// repositories you may pull, a repository's tags, and a tag's manifest
// (its platforms or layers), with deletion behind a confirmation.
package images

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
)

type catalogMsg struct {
	owner, gen int
	repos      []string
	err        error
}

// Catalog is the registry's repositories the user may pull
// (GET /v2/_catalog): the Images tab.
type Catalog struct {
	ctx    *common.Context
	id     int
	table  *components.Table
	load   common.Load
	repos  []string
	width  int
	height int
}

// NewCatalog returns the repository list.
func NewCatalog(ctx *common.Context) *Catalog {
	c := &Catalog{ctx: ctx, id: ctx.NewID()}
	c.table = components.NewTable(ctx, components.Column{Title: "REPOSITORY", Flex: 1, Min: 10})
	c.table.Empty = "No images yet: push one with `forge image push FILE NAME:TAG`."
	return c
}

func (c *Catalog) Init() tea.Cmd    { return c.fetch() }
func (c *Catalog) Refresh() tea.Cmd { return c.fetch() }

func (c *Catalog) fetch() tea.Cmd {
	reg, err := c.ctx.Registry()
	if err == nil && !reg.HasCredentials() {
		err = errNoLogin(reg.Host())
	}
	if err != nil {
		c.load.Fail(err)
		return nil
	}
	gen := c.load.Start()
	ctx, owner := c.ctx.Ctx, c.id
	return func() tea.Msg {
		repos, err := reg.Catalog(ctx)
		return catalogMsg{owner: owner, gen: gen, repos: repos, err: err}
	}
}

type errNoLogin string

func (e errNoLogin) Error() string {
	return "not logged in to the registry " + string(e) + ": run `forge image login` (or set FORGE_USERNAME and FORGE_PASSWORD)"
}

func (c *Catalog) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case catalogMsg:
		if msg.owner != c.id || !c.load.Finish(msg.gen, msg.err) {
			return nil
		}
		if msg.err != nil {
			return common.Error(msg.err)
		}
		c.repos = msg.repos
		rows := make([]components.Row, len(c.repos))
		for i, r := range c.repos {
			rows[i] = components.Row{Key: r, Cells: []string{text.OneLine(r)}}
		}
		c.table.SetRows(rows)
	case deletedMsg:
		// A deletion may have removed a repository's last tag.
		return c.fetch()
	case tea.KeyPressMsg:
		if !c.table.Capturing() && key.Matches(msg, c.ctx.Keys.Open) {
			if i := c.table.SelectedIndex(); i >= 0 {
				return common.Push(NewTags(c.ctx, c.repos[i]))
			}
			return nil
		}
		_, cmd := c.table.Update(msg)
		return cmd
	case tea.MouseWheelMsg, tea.PasteMsg:
		_, cmd := c.table.Update(msg)
		return cmd
	}
	return nil
}

func (c *Catalog) SetSize(width, height int) {
	c.width, c.height = width, height
	c.table.SetSize(width, height-1)
}

func (c *Catalog) View() string {
	if !c.load.Done {
		return c.ctx.Placeholder(&c.load, "the registry's repositories", c.width, c.height)
	}
	st := c.ctx.Styles
	head := st.Bold.Render("Image repositories") + st.Dim.Render(" · "+text.Plural(len(c.repos), "repository", "repositories")+" you may pull")
	if c.load.Busy {
		head += " " + st.Accent.Render(c.ctx.Spinner)
	}
	return common.Pad(head+"\n"+c.table.View(), c.width, c.height)
}

func (c *Catalog) Title() string   { return "Images" }
func (c *Catalog) Capturing() bool { return c.table.Capturing() }
func (c *Catalog) CanGoBack() bool { return c.table.CanGoBack() }
func (c *Catalog) Animating() bool { return c.load.Busy }

func (c *Catalog) ShortHelp() []key.Binding {
	k := c.ctx.Keys
	return []key.Binding{k.Open, k.Filter, k.Refresh}
}

func (c *Catalog) FullHelp() [][]key.Binding {
	k := c.ctx.Keys
	return [][]key.Binding{c.table.KeyHelp(), {k.Open, k.Refresh}}
}
