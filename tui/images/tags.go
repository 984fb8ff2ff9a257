package images

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/regclient"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
	"github.com/google/go-containerregistry/pkg/name"
)

type tagsMsg struct {
	owner, gen int
	tags       []regclient.Tag
	err        error
}

// planMsg is what deleting a reference would remove, to confirm.
type planMsg struct {
	owner int
	ref   string
	plan  *regclient.DeletePlan
	err   error
}

// deletedMsg tells the image views a manifest is gone.
type deletedMsg struct {
	owner int
	repo  string
	what  string
	err   error
}

// Tags is a repository's tags; enter shows a tag's manifest, d deletes.
type Tags struct {
	ctx     *common.Context
	id      int
	repo    string
	table   *components.Table
	load    common.Load
	tags    []regclient.Tag
	confirm *components.Confirm
	busy    string // "planning", "deleting"
	width   int
	height  int

	keyDelete key.Binding
}

// NewTags returns the tags of repo (as the catalog names it, user/image).
func NewTags(ctx *common.Context, repo string) *Tags {
	t := &Tags{ctx: ctx, id: ctx.NewID(), repo: repo, confirm: components.NewConfirm(ctx)}
	t.table = components.NewTable(ctx,
		components.Column{Title: "TAG", Flex: 1, Min: 8},
		components.Column{Title: "DIGEST", Width: 19},
		components.Column{Title: "SIZE", Width: 9, Right: true},
		components.Column{Title: "UPDATED", Width: 8, Right: true},
	)
	t.table.Empty = "No tags: the repository is empty."
	t.keyDelete = common.Binding("d", "delete (asks first)", "d", "delete")
	return t
}

func (t *Tags) Init() tea.Cmd    { return t.fetch() }
func (t *Tags) Refresh() tea.Cmd { return t.fetch() }

func (t *Tags) fetch() tea.Cmd {
	reg, err := t.ctx.Registry()
	if err != nil {
		t.load.Fail(err)
		return nil
	}
	gen := t.load.Start()
	ctx, owner, repo := t.ctx.Ctx, t.id, t.repo
	return func() tea.Msg {
		r, err := reg.ParseRepository(repo)
		if err != nil {
			return tagsMsg{owner: owner, gen: gen, err: err}
		}
		tags, _, err := reg.Tags(ctx, r)
		return tagsMsg{owner: owner, gen: gen, tags: tags, err: err}
	}
}

func (t *Tags) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tagsMsg:
		if msg.owner != t.id || !t.load.Finish(msg.gen, msg.err) {
			return nil
		}
		if msg.err != nil {
			return common.Error(msg.err)
		}
		t.tags = msg.tags
		t.setRows()
	case planMsg:
		if msg.owner == t.id {
			t.busy = ""
			return askDelete(t.ctx, t.confirm, t.id, t.repo, msg)
		}
	case deletedMsg:
		var cmd tea.Cmd
		if msg.owner == t.id {
			t.busy = ""
			cmd = deleted(msg)
		}
		if msg.repo == t.repo && msg.err == nil {
			return tea.Batch(cmd, t.fetch())
		}
		return cmd
	case common.ThemeMsg:
		t.setRows()
	case tea.KeyPressMsg:
		return t.key(msg)
	case tea.MouseWheelMsg, tea.PasteMsg:
		_, cmd := t.table.Update(msg)
		return cmd
	}
	return nil
}

func (t *Tags) key(msg tea.KeyPressMsg) tea.Cmd {
	if t.confirm.Active() {
		if msg.String() == "y" || msg.String() == "Y" {
			t.busy = "deleting"
		}
		return t.confirm.Update(msg)
	}
	if t.table.Capturing() {
		_, cmd := t.table.Update(msg)
		return cmd
	}
	i := t.table.SelectedIndex()
	switch {
	case key.Matches(msg, t.ctx.Keys.Open) && i >= 0:
		return common.Push(NewManifest(t.ctx, t.repo, t.tags[i].Name))
	case key.Matches(msg, t.keyDelete) && i >= 0:
		t.busy = "planning"
		return planDelete(t.ctx, t.id, t.repo+":"+t.tags[i].Name)
	}
	_, cmd := t.table.Update(msg)
	return cmd
}

func (t *Tags) setRows() {
	st := t.ctx.Styles
	rows := make([]components.Row, len(t.tags))
	for i, tag := range t.tags {
		size := ""
		if tag.Size > 0 {
			size = text.Bytes(tag.Size)
		}
		rows[i] = components.Row{Key: tag.Name, Cells: []string{
			st.Bold.Render(text.OneLine(tag.Name)), st.Dim.Render(text.ShortDigest(tag.Digest)), size,
			st.Dim.Render(text.Since(tag.UpdatedAt, t.ctx.Now()))}}
	}
	t.table.SetRows(rows)
}

func (t *Tags) SetSize(width, height int) {
	t.width, t.height = width, height
	t.table.SetSize(width, height-2)
}

func (t *Tags) View() string {
	if !t.load.Done {
		return t.ctx.Placeholder(&t.load, "the tags of "+t.repo, t.width, t.height)
	}
	st := t.ctx.Styles
	head := st.Bold.Render(text.OneLine(t.repo)) + st.Dim.Render(" · "+text.Plural(len(t.tags), "tag", "tags"))
	foot := footer(t.ctx, t.confirm, t.busy, t.width)
	return common.Pad(head+"\n"+common.Pad(t.table.View(), t.width, t.height-2)+"\n"+foot, t.width, t.height)
}

func (t *Tags) Title() string   { return text.OneLine(t.repo) }
func (t *Tags) Capturing() bool { return t.table.Capturing() || t.confirm.Active() }
func (t *Tags) CanGoBack() bool { return t.table.CanGoBack() }
func (t *Tags) Animating() bool { return t.load.Busy || t.busy != "" }

func (t *Tags) ShortHelp() []key.Binding {
	k := t.ctx.Keys
	return []key.Binding{k.Open, t.keyDelete, k.Filter, k.Back}
}

func (t *Tags) FullHelp() [][]key.Binding {
	k := t.ctx.Keys
	return [][]key.Binding{t.table.KeyHelp(), {k.Open, t.keyDelete, k.Refresh}}
}

// planDelete resolves ref and finds every tag deleting it removes.
func planDelete(ctx *common.Context, owner int, ref string) tea.Cmd {
	reg, err := ctx.Registry()
	if err != nil {
		return common.Error(err)
	}
	c := ctx.Ctx
	return func() tea.Msg {
		r, err := reg.ParseReference(ref)
		if err == nil {
			err = reg.CheckWrite(r.Context(), "delete")
		}
		if err != nil {
			return planMsg{owner: owner, ref: ref, err: err}
		}
		plan, err := reg.PlanDelete(c, r)
		return planMsg{owner: owner, ref: ref, plan: plan, err: err}
	}
}

// askDelete puts the plan to the user: deleting the digest removes every
// tag on it.
func askDelete(ctx *common.Context, confirm *components.Confirm, owner int, repo string, msg planMsg) tea.Cmd {
	if msg.err != nil {
		return common.Error(msg.err)
	}
	what := "no tags"
	switch len(msg.plan.Tags) {
	case 0:
	case 1:
		what = "the tag " + msg.plan.Tags[0]
	default:
		what = "the tags " + strings.Join(msg.plan.Tags, ", ")
	}
	digest := msg.plan.Digest
	confirm.Ask(fmt.Sprintf("Delete %s? It removes the manifest %s and %s.", msg.ref, text.ShortDigest(digest.DigestStr()), what),
		deleteDigest(ctx, owner, repo, digest, what))
	return nil
}

func deleteDigest(ctx *common.Context, owner int, repo string, d name.Digest, what string) tea.Cmd {
	reg, err := ctx.Registry()
	if err != nil {
		return common.Error(err)
	}
	c := ctx.Ctx
	return func() tea.Msg {
		err := reg.Delete(c, d)
		return deletedMsg{owner: owner, repo: repo, what: what, err: err}
	}
}

// deleted reports a deletion in the status line.
func deleted(msg deletedMsg) tea.Cmd {
	if msg.err != nil {
		return common.Error(msg.err)
	}
	return common.Status("Deleted the manifest with " + msg.what + ".")
}

// footer is the last line of an image view: the question, or what is
// being done.
func footer(ctx *common.Context, confirm *components.Confirm, busy string, width int) string {
	st := ctx.Styles
	switch {
	case confirm.Active():
		return confirm.View(width)
	case busy == "planning":
		return st.Accent.Render(ctx.Spinner) + " Finding the tags the deletion would remove…"
	case busy == "deleting":
		return st.Accent.Render(ctx.Spinner) + " Deleting…"
	}
	return ""
}
