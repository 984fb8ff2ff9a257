package repos

import (
	"context"
	"path"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/markdown"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
)

// dir is a directory's listing.
type dir struct {
	path    string
	entries []*client.Content
}

// files browses a repository's tree: enter opens a directory or previews
// a file, backspace or esc goes up.
type files struct {
	ctx     *common.Context
	id      int
	repo    client.RepoName
	path    string // the directory shown, "" for the top
	table   *components.Table
	load    common.Load
	entries []*client.Content
	width   int
	height  int

	keyUp key.Binding
}

func newFiles(ctx *common.Context, repo client.RepoName) *files {
	f := &files{ctx: ctx, id: ctx.NewID(), repo: repo}
	f.table = components.NewTable(ctx,
		components.Column{Title: "NAME", Flex: 1, Min: 10},
		components.Column{Title: "SIZE", Width: 9, Right: true},
	)
	f.table.Empty = "This directory is empty (a repository without commits has no files)."
	f.keyUp = common.Binding("backspace", "parent directory", "backspace")
	return f
}

func (f *files) Init() tea.Cmd    { return f.open(f.path) }
func (f *files) Refresh() tea.Cmd { return f.open(f.path) }

// open lists the directory dirPath.
func (f *files) open(dirPath string) tea.Cmd {
	repo := f.repo
	return common.LoadREST(f.ctx, &f.load, f.id, func(ctx context.Context, c *client.Client) (dir, error) {
		_, entries, err := c.Repos.Contents(ctx, repo, dirPath, client.ContentsOptions{})
		return dir{dirPath, entries}, err
	})
}

func (f *files) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.Result[dir]:
		if ok, failed := msg.Accept(f.id, &f.load); !ok {
			return failed
		}
		prev := f.path
		f.path, f.entries = msg.Value.path, msg.Value.entries
		sortEntries(f.entries)
		f.table.SetFilter("")
		f.setRows()
		// Coming up from a directory, the cursor stays on it.
		f.table.Move(-f.table.Len())
		for i, e := range f.entries {
			if e.Path == prev {
				f.table.Move(i)
			}
		}
	case common.ThemeMsg:
		f.setRows()
	case tea.KeyPressMsg:
		return f.key(msg)
	case tea.MouseWheelMsg, tea.PasteMsg:
		_, cmd := f.table.Update(msg)
		return cmd
	}
	return nil
}

func (f *files) key(msg tea.KeyPressMsg) tea.Cmd {
	if f.table.Capturing() {
		_, cmd := f.table.Update(msg)
		return cmd
	}
	switch {
	case key.Matches(msg, f.ctx.Keys.Open):
		i := f.table.SelectedIndex()
		if i < 0 {
			return nil
		}
		e := f.entries[i]
		if e.Type == "dir" {
			return f.open(e.Path)
		}
		return common.Push(newFileView(f.ctx, f.repo, e))
	case key.Matches(msg, f.keyUp), key.Matches(msg, f.ctx.Keys.Back) && f.table.Filter() == "":
		if f.path != "" {
			return f.open(parent(f.path))
		}
	default:
		_, cmd := f.table.Update(msg)
		return cmd
	}
	return nil
}

func parent(p string) string {
	d := path.Dir(strings.Trim(p, "/"))
	if d == "." || d == "/" {
		return ""
	}
	return d
}

// sortEntries puts directories first, each group by name.
func sortEntries(es []*client.Content) {
	sort.SliceStable(es, func(i, j int) bool {
		di, dj := es[i].Type == "dir", es[j].Type == "dir"
		if di != dj {
			return di
		}
		return es[i].Name < es[j].Name
	})
}

func (f *files) setRows() {
	st := f.ctx.Styles
	rows := make([]components.Row, len(f.entries))
	for i, e := range f.entries {
		name, size := text.OneLine(e.Name), ""
		switch e.Type {
		case "dir":
			name = st.Accent.Render(name + "/")
		case "file":
			size = st.Dim.Render(text.Bytes(e.Size))
		default:
			name += st.Dim.Render(" (" + text.OneLine(e.Type) + ")")
		}
		rows[i] = components.Row{Key: e.Path, Cells: []string{name, size}}
	}
	f.table.SetRows(rows)
}

func (f *files) SetSize(width, height int) {
	f.width, f.height = width, height
	f.table.SetSize(width, height-1)
}

func (f *files) View() string {
	if !f.load.Done {
		return f.ctx.Placeholder(&f.load, "files", f.width, f.height)
	}
	st := f.ctx.Styles
	head := st.Bold.Render("/" + text.OneLine(f.path))
	if f.path != "" {
		head += st.Dim.Render(" · backspace goes up")
	}
	if f.load.Busy {
		head += " " + st.Accent.Render(f.ctx.Spinner)
	}
	return common.Pad(head+"\n"+f.table.View(), f.width, f.height)
}

func (f *files) Title() string   { return "Files" }
func (f *files) Capturing() bool { return f.table.Capturing() }
func (f *files) CanGoBack() bool { return f.table.CanGoBack() || f.path != "" }
func (f *files) Animating() bool { return f.load.Busy }

func (f *files) ShortHelp() []key.Binding {
	k := f.ctx.Keys
	return []key.Binding{k.Open, f.keyUp, k.Filter}
}

func (f *files) FullHelp() [][]key.Binding {
	k := f.ctx.Keys
	return [][]key.Binding{f.table.KeyHelp(), {k.Open, f.keyUp, k.Refresh}}
}

// maxView is how much of a file the view reads: a larger one shows its
// first MiB and says so.
const maxView = 1 << 20

// fileView previews a file: markdown rendered, text with line numbers,
// binary files described.
type fileView struct {
	ctx    *common.Context
	id     int
	repo   client.RepoName
	entry  *client.Content
	load   common.Load
	data   []byte
	size   int64 // the whole file's, -1 when the service did not say
	cut    bool  // data is the first maxView bytes only
	pager  *components.Pager
	search *components.Search
	width  int
	height int
	drawnW int
	stale  bool
}

func newFileView(ctx *common.Context, repo client.RepoName, e *client.Content) *fileView {
	v := &fileView{ctx: ctx, id: ctx.NewID(), repo: repo, entry: e, pager: components.NewPager(ctx), stale: true}
	v.search = components.NewSearch(ctx, v.pager, "the file")
	return v
}

func (v *fileView) Init() tea.Cmd    { return v.fetch() }
func (v *fileView) Refresh() tea.Cmd { return v.fetch() }

func (v *fileView) fetch() tea.Cmd {
	repo, p := v.repo, v.entry.Path
	return common.LoadREST(v.ctx, &v.load, v.id, func(ctx context.Context, c *client.Client) (fileRead, error) {
		f, data, cut, err := c.Repos.ReadFile(ctx, repo, p, client.ContentsOptions{}, maxView)
		if err != nil {
			return fileRead{}, err
		}
		return fileRead{data: data, size: f.Size, cut: cut}, nil
	})
}

// fileRead is what the view read of a file.
type fileRead struct {
	data []byte
	size int64
	cut  bool
}

func (v *fileView) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.Result[fileRead]:
		if ok, failed := msg.Accept(v.id, &v.load); !ok {
			return failed
		}
		v.data, v.size, v.cut, v.stale = msg.Value.data, msg.Value.size, msg.Value.cut, true
	case common.ThemeMsg:
		v.stale = true
	case tea.KeyPressMsg:
		if v.search.Key(msg) {
			v.layout()
			return nil
		}
		if key.Matches(msg, v.ctx.Keys.Ask) {
			return common.AskAgent(v.repo, "file:"+v.entry.Path, "")
		}
		v.pager.Update(msg)
	case tea.PasteMsg:
		v.search.Paste(msg)
	default:
		v.pager.Update(msg)
	}
	return nil
}

func (v *fileView) render() []string {
	st := v.ctx.Styles
	v.pager.Numbers, v.pager.Sideways = false, false
	save := "  forge repo contents " + text.OneLine(v.entry.Path) + " -R " + text.OneLine(v.repo.String()) + " > FILE"
	switch {
	case client.Binary(v.data, !v.cut):
		return []string{st.Dim.Render("A binary file of " + v.sizeText() + ": save it with"), save}
	case len(v.data) == 0:
		return []string{st.Dim.Render("An empty file.")}
	}
	var lines []string
	if markdown.IsFile(v.entry.Name) {
		lines = v.ctx.Markdown(string(v.data), v.width)
	} else {
		v.pager.Numbers, v.pager.Sideways = true, true
		lines = strings.Split(strings.TrimSuffix(string(v.data), "\n"), "\n")
		for i, l := range lines {
			lines[i] = text.LogLine(l)
		}
	}
	if v.cut {
		lines = append(lines, st.Dim.Render("… the first "+text.Bytes(maxView)+" of "+v.sizeText()+" is shown; save the whole file with"), save)
	}
	return lines
}

// sizeText is the whole file's size, as far as it is known.
func (v *fileView) sizeText() string {
	switch {
	case v.size >= 0:
		return text.Bytes(v.size)
	case v.cut:
		return "more than " + text.Bytes(maxView)
	}
	return text.Bytes(int64(len(v.data)))
}

func (v *fileView) SetSize(width, height int) {
	v.width, v.height = width, height
	v.layout()
}

// layout gives the pager the height less the head and, while a search
// is on, its line.
func (v *fileView) layout() {
	h := v.height - 1
	if v.search.Active() {
		h--
	}
	v.pager.SetSize(v.width, max(h, 1))
}

// Capturing: the search query takes every key while it is typed.
func (v *fileView) Capturing() bool { return v.search.Typing() }

// CanGoBack: esc clears a search before it leaves the file.
func (v *fileView) CanGoBack() bool { return v.search.Active() }

func (v *fileView) View() string {
	if !v.load.Done {
		return v.ctx.Placeholder(&v.load, v.entry.Path, v.width, v.height)
	}
	if v.stale || v.drawnW != v.width {
		v.pager.SetLines(v.render())
		v.search.Rescan()
		v.drawnW, v.stale = v.width, false
	}
	st := v.ctx.Styles
	head := st.Bold.Render(text.OneLine(v.entry.Path)) + st.Dim.Render(" · "+v.sizeText()+" · "+v.pager.Position())
	body := v.pager.View()
	if v.search.Active() {
		body = common.Pad(body, v.width, v.pager.Height()) + "\n" + v.search.View(v.width)
	}
	return common.Pad(head+"\n"+body, v.width, v.height)
}

func (v *fileView) Title() string   { return text.OneLine(v.entry.Name) }
func (v *fileView) Animating() bool { return v.load.Busy }

func (v *fileView) ShortHelp() []key.Binding {
	k := v.ctx.Keys
	if keys := v.search.ShortHelp(); keys != nil {
		return keys
	}
	return []key.Binding{k.Down, k.PageDown, k.Ask, k.Back}
}

func (v *fileView) FullHelp() [][]key.Binding {
	return [][]key.Binding{v.pager.KeyHelp(), {components.KeySearch(), components.KeyNext(), v.ctx.Keys.Ask}}
}
