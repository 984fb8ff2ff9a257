package diff

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/app/changes"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
)

// Change is what a commit or a pull request changed: the files, as the
// service lists them, and their diffs.
type Change struct {
	Files []client.CommitFile
	Diffs []changes.File
	// Commit is the commit read, for a commit's page.
	Commit *client.CommitDetail
}

// Page shows a Change: a head (a commit's message), the changed files,
// then the diff; n and N go from file to file, a asks the agent.
type Page struct {
	ctx    *common.Context
	id     int
	title  string
	read   func(context.Context, *client.Client) (*Change, error)
	change *Change
	load   common.Load
	pager  *components.Pager
	search *components.Search
	starts []int // the line of each file's diff
	width  int
	height int
	drawnW int
	stale  bool

	// Head draws the lines above the files (change is nil until read).
	Head func(change *Change) []string
	// Ask is what a does (nil: nothing).
	Ask func() tea.Cmd
	// URL is the web page of what is shown.
	URL string
}

// NewPage returns a page titled title showing what read reads.
func NewPage(ctx *common.Context, title string, read func(context.Context, *client.Client) (*Change, error)) *Page {
	p := &Page{ctx: ctx, id: ctx.NewID(), title: title, read: read, pager: components.NewPager(ctx), stale: true}
	p.pager.Sideways = true
	p.search = components.NewSearch(ctx, p.pager, "the changes")
	return p
}

func (p *Page) Init() tea.Cmd { return p.Refresh() }

// Refresh reads the change again.
func (p *Page) Refresh() tea.Cmd { return common.LoadREST(p.ctx, &p.load, p.id, p.read) }

func (p *Page) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.Result[*Change]:
		if ok, failed := msg.Accept(p.id, &p.load); !ok {
			return failed
		}
		p.change, p.stale = msg.Value, true
	case common.ThemeMsg:
		p.stale = true
	case tea.KeyPressMsg:
		return p.key(msg)
	case tea.PasteMsg:
		p.search.Paste(msg)
	case tea.MouseWheelMsg:
		p.pager.Update(msg)
	}
	return nil
}

func (p *Page) key(msg tea.KeyPressMsg) tea.Cmd {
	// With a search on, n and N go from match to match; else from file
	// to file.
	if p.search.Key(msg) {
		p.layout()
		return nil
	}
	switch {
	case key.Matches(msg, p.ctx.Keys.Ask) && p.Ask != nil:
		return p.Ask()
	case key.Matches(msg, keyNextFile()):
		p.pager.ScrollTo(next(p.starts, p.pager.Offset(), msg.String() == "N"))
	default:
		p.pager.Update(msg)
	}
	return nil
}

func keyNextFile() key.Binding { return common.Binding("n/N", "next/previous file", "n", "N") }

// next is the start of the file after (or, back, before) the line at.
func next(starts []int, at int, back bool) int {
	if back {
		for i := len(starts) - 1; i >= 0; i-- {
			if starts[i] < at {
				return starts[i]
			}
		}
		return 0
	}
	for _, s := range starts {
		if s > at {
			return s
		}
	}
	return at
}

func (p *Page) render() []string {
	var lines []string
	if p.Head != nil {
		lines = p.Head(p.change)
	}
	if p.change == nil {
		return append(lines, strings.Split(p.ctx.Placeholder(&p.load, "the changes", p.width, 3), "\n")...)
	}
	lines = append(lines, changedFiles(p.ctx, p.change)...)
	d, starts := Lines(p.ctx, p.change.Diffs)
	for i := range starts {
		starts[i] += len(lines)
	}
	p.starts = starts
	return append(lines, d...)
}

// changedFiles lists files as "modified path +3 -1", under a heading:
// the counts the service sent, else those of the diff.
func changedFiles(ctx *common.Context, ch *Change) []string {
	st := ctx.Styles
	lines := []string{st.Bold.Render(text.Count(len(ch.Files), "changed file"))}
	for i, f := range ch.Files {
		counts := ""
		switch {
		case f.Additions != nil && f.Deletions != nil:
			counts = fmt.Sprintf("+%d -%d", *f.Additions, *f.Deletions)
		case i < len(ch.Diffs) && ch.Diffs[i].Unified != "":
			counts = fmt.Sprintf("+%d -%d", ch.Diffs[i].Added, ch.Diffs[i].Removed)
		}
		if add, del, ok := strings.Cut(counts, " "); ok {
			counts = " " + st.Success.Render(add) + " " + st.Failure.Render(del)
		}
		lines = append(lines, "  "+st.Dim.Render(fmt.Sprintf("%-8s", text.OneLine(f.Status)))+" "+text.OneLine(f.Filename)+counts)
	}
	return append(lines, "")
}

func (p *Page) SetSize(width, height int) {
	p.width, p.height = width, height
	p.layout()
}

// layout gives the pager the height, less the search's line while one
// is on.
func (p *Page) layout() {
	h := p.height
	if p.search.Active() {
		h--
	}
	p.pager.SetSize(p.width, max(h, 1))
}

func (p *Page) View() string {
	if p.stale || p.drawnW != p.width || p.load.Busy {
		off := p.pager.Offset()
		p.pager.SetLines(p.render())
		p.pager.ScrollTo(off)
		p.search.Rescan()
		p.drawnW, p.stale = p.width, false
	}
	if !p.search.Active() {
		return common.Pad(p.pager.View(), p.width, p.height)
	}
	return common.Pad(common.Pad(p.pager.View(), p.width, p.pager.Height())+"\n"+p.search.View(p.width), p.width, p.height)
}

// Capturing: the search query takes every key while it is typed.
func (p *Page) Capturing() bool { return p.search.Typing() }

// CanGoBack: esc clears a search before it leaves the page.
func (p *Page) CanGoBack() bool { return p.search.Active() }

func (p *Page) Title() string   { return p.title }
func (p *Page) Animating() bool { return p.load.Busy }

// Link is the web page of what is shown.
func (p *Page) Link() string { return p.URL }

func (p *Page) ShortHelp() []key.Binding {
	k := p.ctx.Keys
	if keys := p.search.ShortHelp(); keys != nil {
		return keys
	}
	keys := []key.Binding{k.Down, k.PageDown, keyNextFile()}
	if p.Ask != nil {
		keys = append(keys, k.Ask)
	}
	return keys
}

func (p *Page) FullHelp() [][]key.Binding {
	k := p.ctx.Keys
	own := []key.Binding{keyNextFile(), components.KeySearch(), common.Binding("n/N", "next/previous match (searching)", "n", "N"), k.Refresh, k.Copy, k.Browse}
	if p.Ask != nil {
		own = append(own, k.Ask)
	}
	return [][]key.Binding{p.pager.KeyHelp(), own}
}
