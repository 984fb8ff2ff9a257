package components

import (
	"context"
	"fmt"
	"github.com/forgehq/forge/internal/text"
	"maps"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/tui/common"
)

// Work is a load's network part: it runs in a command, off the UI
// goroutine.
type Work[T any] func() ([]T, error)

// REST is a List's Fetch from the service's REST API: list runs in the
// command with the TUI's context and the current client. What list
// reads must not change meanwhile (capture it in a Fetch of your own).
func REST[T any](ctx *common.Context, list func(context.Context, *client.Client) ([]T, error)) func() (Work[T], error) {
	return func() (Work[T], error) {
		c, err := ctx.REST()
		if err != nil {
			return nil, err
		}
		cx := ctx.Ctx
		return func() ([]T, error) { return list(cx, c) }, nil
	}
}

// List is a list view of one kind of record (issues, repositories, runs,
// jobs, image repositories, tags, a repository's pull requests...): it
// loads its items with Fetch, drops answers that are stale or meant for
// another view, draws one table row per item under an optional head and
// above an optional foot, and opens an item on enter. Views embed it and
// add their own keys and messages before passing the rest on to Update.
// A status filter is a Keep (then Redraw); a cursor put on the first
// match after every load is a Loaded that calls SelectFirst.
type List[T any] struct {
	ctx   *common.Context
	id    int
	title string
	what  string // "issues", for "Loading issues…"
	table *Table
	load  common.Load
	items []T
	rows  []int     // the index in items of each table row, when kept
	kept  bool      // the rows were drawn with a Keep
	read  time.Time // when the items were last read (the context's clock)

	width, height int

	// Fetch starts a load on the UI goroutine: it finds the client (which
	// can fail at once: no token, not logged in) and captures what the
	// request depends on, and returns the Work to run. Required.
	Fetch func() (Work[T], error)
	// Row draws an item as a table row. Required. Row, Open, Loaded,
	// Keep, Head, Foot and PageOf run on the UI goroutine, as Fetch does;
	// only the Work Fetch returns runs off it.
	Row func(T) Row
	// Open is what enter does on the selected item; nil: enter does
	// nothing and the help does not offer it.
	Open func(T) tea.Cmd
	// Loaded runs after every answer that is taken, failed or not (runs
	// poll while some are unfinished).
	Loaded func(err error) tea.Cmd
	// Keep decides which items get a row (a status filter); nil: all.
	Keep func(T) bool
	// Head draws the lines above the table and Foot those below it; their
	// heights are HeadLines and FootLines.
	Head, Foot           func() string
	HeadLines, FootLines int
	// Keys are the view's own keys, offered in the help after Open.
	Keys []key.Binding
	// Saved are filters typed by one key (tui.filters in the
	// configuration); the view's own keys come first.
	Saved map[string]string
	// PageOf is an item's web page (its html_url): y copies it, w opens
	// it. nil: the items have none.
	PageOf func(T) string
}

// Link is the selected item's web page ("" when none).
func (l *List[T]) Link() string {
	if it, ok := l.Selected(); ok && l.PageOf != nil {
		return l.PageOf(it)
	}
	return ""
}

// NewList returns a list titled title, loading what ("pull requests"),
// with a table of cols.
func NewList[T any](ctx *common.Context, title, what string, cols ...Column) *List[T] {
	return &List[T]{ctx: ctx, id: ctx.NewID(), title: title, what: what, table: NewTable(ctx, cols...)}
}

// SetTitle renames the list (a section's name).
func (l *List[T]) SetTitle(title string) { l.title = title }

// ID is the list's component ID, the Owner of its results.
func (l *List[T]) ID() int { return l.id }

// Table is the list's table (its Empty text, its filter).
func (l *List[T]) Table() *Table { return l.table }

// Items are the items of the last load.
func (l *List[T]) Items() []T { return l.items }

// SetItems replaces the items (an item changed elsewhere) and redraws.
func (l *List[T]) SetItems(items []T) {
	l.items = items
	l.Redraw()
}

// Loading reports whether a load is under way; Done whether one has
// succeeded.
func (l *List[T]) Loading() bool { return l.load.Busy }
func (l *List[T]) Done() bool    { return l.load.Done }

// Err is the last load's error.
func (l *List[T]) Err() error { return l.load.Err }

// Selected is the item under the cursor.
func (l *List[T]) Selected() (T, bool) {
	i := l.table.SelectedIndex()
	if i < 0 {
		var zero T
		return zero, false
	}
	return l.items[l.item(i)], true
}

// item is the index in items of table row i.
func (l *List[T]) item(i int) int {
	if !l.kept {
		return i
	}
	return l.rows[i]
}

// SelectFirst puts the cursor on the first shown item that match
// accepts, and reports whether there was one.
func (l *List[T]) SelectFirst(match func(T) bool) bool {
	for i := range l.table.Len() {
		if match(l.items[l.item(i)]) && l.table.Select(i) {
			return true
		}
	}
	return false
}

func (l *List[T]) Init() tea.Cmd { return tea.Batch(l.Refresh(), l.deadFilters()) }

// deadFilters warns of a filter saved on a key the view's own keys
// take first (tui.filters.issues.n: n opens a new issue): the settings
// refuse those on the shared keys, but only the view knows its own.
func (l *List[T]) deadFilters() tea.Cmd {
	for _, k := range slices.Sorted(maps.Keys(l.Saved)) {
		for _, b := range l.Keys {
			if slices.Contains(b.Keys(), k) {
				return common.Error(fmt.Errorf("the filter %q saved on %s is never typed: %s is %s here; save it on another key (tui.filters)", l.Saved[k], k, k, b.Help().Desc))
			}
		}
	}
	return nil
}

// Refresh loads the items again.
func (l *List[T]) Refresh() tea.Cmd {
	work, err := l.Fetch()
	if err != nil {
		l.load.Fail(err)
		return nil
	}
	return common.Fetch(l.ctx, l.id, l.load.Start(), work)
}

func (l *List[T]) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.Result[[]T]:
		if !msg.Take(l.id, &l.load) {
			return nil
		}
		if msg.Err == nil {
			l.read = l.ctx.Now()
			l.SetItems(msg.Value)
		}
		var after tea.Cmd
		if l.Loaded != nil {
			after = l.Loaded(msg.Err)
		}
		return tea.Batch(common.Error(msg.Err), after)
	case common.ThemeMsg:
		l.Redraw()
	case tea.KeyPressMsg:
		if f, ok := l.Saved[msg.String()]; ok && !l.table.Capturing() {
			l.table.SetFilter(f)
			return nil
		}
		if l.Open != nil && !l.table.Capturing() && key.Matches(msg, l.ctx.Keys.Open) {
			if it, ok := l.Selected(); ok {
				return l.Open(it)
			}
			return nil
		}
		_, cmd := l.table.Update(msg)
		return cmd
	case tea.MouseWheelMsg, tea.PasteMsg:
		_, cmd := l.table.Update(msg)
		return cmd
	case tea.MouseClickMsg:
		return l.click(msg)
	}
	return nil
}

// click selects the row clicked; a click on the selected row opens it,
// as enter does.
func (l *List[T]) click(msg tea.MouseClickMsg) tea.Cmd {
	if msg.Button != tea.MouseLeft || l.table.Capturing() || !l.load.Done {
		return nil
	}
	hit, again := l.table.Click(msg.Y - l.HeadLines)
	if hit && again && l.Open != nil {
		if it, ok := l.Selected(); ok {
			return l.Open(it)
		}
	}
	return nil
}

// Redraw draws the rows again (the styles changed, a spinner in a row
// turned, Keep changed its mind).
func (l *List[T]) Redraw() {
	l.rows, l.kept = l.rows[:0], l.Keep != nil
	rows := make([]Row, 0, len(l.items))
	for i, it := range l.items {
		if l.Keep == nil || l.Keep(it) {
			rows = append(rows, l.Row(it))
			if l.kept {
				l.rows = append(l.rows, i)
			}
		}
	}
	l.table.SetRows(rows)
}

func (l *List[T]) SetSize(width, height int) {
	l.width, l.height = width, height
	l.table.SetSize(width, height-l.HeadLines-l.FootLines)
}

// View draws the spinner or the error until the first load is in, then
// the head, the table and the foot.
func (l *List[T]) View() string {
	if !l.load.Done || client.IsNotFound(l.load.Err) {
		// A 404 on reading again: what the rows (a run's head) said
		// is gone; the error stands in their place.
		return l.ctx.Placeholder(&l.load, l.what, l.width, l.height)
	}
	body := l.table.View()
	if l.Foot != nil {
		body = common.Pad(body, l.width, l.height-l.HeadLines-l.FootLines) + "\n" + l.Foot()
	}
	if l.Head != nil {
		head := l.Head()
		if age := l.age(); age != "" {
			first, rest, more := strings.Cut(head, "\n")
			head = first + age
			if more {
				head += "\n" + rest
			}
		}
		body = head + "\n" + body
	}
	return common.Pad(body, l.width, l.height)
}

// age says, after the head's first line, how old the items are once
// they are a minute old: a list in sight is not read again by itself
// (but for the runs while some are unfinished).
func (l *List[T]) age() string {
	now := l.ctx.Now()
	if l.read.IsZero() || now.Sub(l.read) < time.Minute {
		return ""
	}
	return l.ctx.Styles.Dim.Render(" · read " + text.Since(l.read, now) + ", r reads again")
}

// Width is the width last given to SetSize.
func (l *List[T]) Width() int { return l.width }

func (l *List[T]) Title() string   { return l.title }
func (l *List[T]) Capturing() bool { return l.table.Capturing() }
func (l *List[T]) CanGoBack() bool { return l.table.CanGoBack() }
func (l *List[T]) Animating() bool { return l.load.Busy }

func (l *List[T]) ShortHelp() []key.Binding {
	k := l.ctx.Keys
	help := make([]key.Binding, 0, len(l.Keys)+3)
	if l.Open == nil {
		return append(append(help, l.Keys...), k.Down, k.Filter, k.Refresh)
	}
	return append(append(append(help, k.Open), l.Keys...), k.Filter, k.Refresh)
}

func (l *List[T]) FullHelp() [][]key.Binding {
	k := l.ctx.Keys
	var own []key.Binding
	if l.Open != nil {
		own = append(own, k.Open)
	}
	own = append(append(own, l.Keys...), k.Refresh)
	if l.PageOf != nil {
		own = append(own, k.Copy, k.Browse)
	}
	for _, f := range slices.Sorted(maps.Keys(l.Saved)) {
		own = append(own, common.FilterBinding(f, l.Saved[f]))
	}
	return [][]key.Binding{l.table.KeyHelp(), own}
}
