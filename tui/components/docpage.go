package components

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/tui/common"
)

// Doc is a read-only page of text — a pull request, a release, a commit,
// a file's preview — rendered for the width by a function and shown in a
// pager. It re-renders when the width or the theme changes.
type Doc struct {
	ctx    *common.Context
	title  string
	render func(width int) []string
	pager  *Pager
	width  int
	height int
	drawnW int
	stale  bool
	// URL is the page's web address (a release's html_url): y copies
	// it, w opens it; "" for none.
	URL string
}

// Link is the page's web address.
func (d *Doc) Link() string { return d.URL }

// NewDoc returns a page titled title whose lines render draws.
func NewDoc(ctx *common.Context, title string, render func(width int) []string) *Doc {
	return &Doc{ctx: ctx, title: title, render: render, pager: NewPager(ctx), stale: true}
}

// Pager is the page's pager (for line numbers, sideways scrolling).
func (d *Doc) Pager() *Pager { return d.pager }

func (d *Doc) Init() tea.Cmd { return nil }

func (d *Doc) Update(msg tea.Msg) tea.Cmd {
	if _, ok := msg.(common.ThemeMsg); ok {
		d.stale = true
		return nil
	}
	d.pager.Update(msg)
	return nil
}

func (d *Doc) SetSize(width, height int) {
	d.width, d.height = width, height
	d.pager.SetSize(width, height)
}

func (d *Doc) View() string {
	if d.stale || d.drawnW != d.width {
		off := d.pager.Offset()
		d.pager.SetLines(d.render(d.width))
		d.pager.ScrollTo(off)
		d.drawnW, d.stale = d.width, false
	}
	return common.Pad(d.pager.View(), d.width, d.height)
}

func (d *Doc) Title() string { return d.title }

func (d *Doc) ShortHelp() []key.Binding {
	k := d.ctx.Keys
	return []key.Binding{k.Down, k.PageDown, k.Back}
}

func (d *Doc) FullHelp() [][]key.Binding {
	if d.URL != "" {
		return [][]key.Binding{d.pager.KeyHelp(), {d.ctx.Keys.Copy, d.ctx.Keys.Browse}}
	}
	return [][]key.Binding{d.pager.KeyHelp()}
}
