// Package images holds the TUI's container registry views: the
// repositories you may pull, a repository's tags, and a tag's manifest
// (its platforms or layers), with deletion behind a confirmation.
package images

import (
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
)

// Catalog is the registry's repositories the user may pull
// (GET /v2/_catalog): the Images tab.
type Catalog struct {
	*components.List[string]
	ctx *common.Context
}

// NewCatalog returns the repository list.
func NewCatalog(ctx *common.Context) *Catalog {
	c := &Catalog{ctx: ctx, List: components.NewList[string](ctx, "Images", "the registry's repositories",
		components.Column{Title: "REPOSITORY", Flex: 1, Min: 10})}
	c.Table().Empty = "No images yet: push one with `forge image push FILE NAME:TAG`."
	c.Fetch = c.fetch
	c.Row = func(r string) components.Row { return components.Row{Key: r, Cells: []string{text.OneLine(r)}} }
	c.Open = func(r string) tea.Cmd { return common.Push(NewTags(ctx, r)) }
	c.Saved = ctx.Filters["images"]
	c.Head, c.HeadLines = c.head, 1
	return c
}

func (c *Catalog) fetch() (components.Work[string], error) {
	reg, err := c.ctx.Registry()
	if err == nil && !reg.HasCredentials() {
		err = errNoLogin(reg.Host())
	}
	if err != nil {
		return nil, err
	}
	ctx := c.ctx.Ctx
	return func() ([]string, error) { return reg.Catalog(ctx) }, nil
}

type errNoLogin string

func (e errNoLogin) Error() string {
	return "not logged in to the registry " + string(e) + ": run `forge image login` (or set FORGE_USERNAME and FORGE_PASSWORD)"
}

func (c *Catalog) Update(msg tea.Msg) tea.Cmd {
	if _, ok := msg.(deletedMsg); ok {
		// A deletion may have removed a repository's last tag.
		return c.Refresh()
	}
	return c.List.Update(msg)
}

func (c *Catalog) head() string {
	st := c.ctx.Styles
	head := st.Bold.Render("Image repositories") + st.Dim.Render(" · "+text.Plural(len(c.Items()), "repository", "repositories")+" you may pull")
	if c.Loading() {
		head += " " + st.Accent.Render(c.ctx.Spinner)
	}
	return head
}
