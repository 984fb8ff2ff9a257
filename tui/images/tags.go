package images

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/regclient"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
	"github.com/google/go-containerregistry/pkg/name"
)

// planMsg is what deleting a reference would remove, to confirm.
// noTagDelete says the registry refused to delete the tag alone, so the
// question is now about the manifest.
type planMsg struct {
	owner       int
	ref         string
	plan        *regclient.DeletePlan
	noTagDelete bool
	err         error
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
	*components.List[regclient.Tag]
	ctx     *common.Context
	repo    string
	confirm *components.Confirm
	busy    string // "planning", "deleting"
	// deleted: a deletion from this view succeeded, so the repository
	// may be gone with its last tag — and not found is then empty.
	deleted bool

	keyDelete key.Binding
}

// NewTags returns the tags of repo (as the catalog names it, user/image).
func NewTags(ctx *common.Context, repo string) *Tags {
	t := &Tags{ctx: ctx, repo: repo, confirm: components.NewConfirm(ctx), List: components.NewList[regclient.Tag](ctx, text.OneLine(repo), "the tags of "+repo,
		components.Column{Title: "TAG", Flex: 1, Min: 8},
		components.Column{Title: "DIGEST", Width: 19},
		components.Column{Title: "SIZE", Width: 9, Right: true},
		components.Column{Title: "UPDATED", Width: 8, Right: true},
	)}
	t.Table().Empty = "No tags: the repository is empty."
	t.keyDelete = common.Binding("d", "delete (asks first)", "d", "delete")
	t.Fetch, t.Row = t.fetch, t.row
	t.Open = func(tag regclient.Tag) tea.Cmd { return common.Push(NewManifest(ctx, repo, tag.Name)) }
	t.Head, t.HeadLines = t.head, 1
	t.Foot, t.FootLines = func() string { return footer(t.ctx, t.confirm, t.busy, t.Width()) }, 1
	t.Keys = []key.Binding{t.keyDelete}
	return t
}

func (t *Tags) fetch() (components.Work[regclient.Tag], error) {
	reg, err := t.ctx.Registry()
	if err != nil {
		return nil, err
	}
	ctx, repo := t.ctx.Ctx, t.repo
	work := func() ([]regclient.Tag, error) {
		r, err := reg.ParseRepository(repo)
		if err != nil {
			return nil, err
		}
		tags, _, err := reg.Tags(ctx, r)
		if err == nil {
			err = reg.Sizes(ctx, r, tags)
		}
		return tags, err
	}
	if !t.deleted {
		return work, nil
	}
	return func() ([]regclient.Tag, error) {
		tags, err := work()
		var st interface{ HTTPStatus() int }
		if errors.As(err, &st) && st.HTTPStatus() == http.StatusNotFound {
			return nil, nil // gone with its last tag
		}
		return tags, err
	}, nil
}

func (t *Tags) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case planMsg:
		if msg.owner == t.ID() {
			t.busy = ""
			return askDelete(t.ctx, t.confirm, t.ID(), t.repo, msg)
		}
		return nil
	case deletedMsg:
		var cmd tea.Cmd
		if msg.owner == t.ID() {
			t.busy = ""
			cmd = deleted(msg)
		}
		if msg.repo == t.repo && msg.err == nil {
			t.deleted = true
			return tea.Batch(cmd, t.Refresh())
		}
		return cmd
	case tea.KeyPressMsg:
		return t.key(msg)
	}
	return t.List.Update(msg)
}

func (t *Tags) key(msg tea.KeyPressMsg) tea.Cmd {
	if t.confirm.Active() {
		if msg.String() == "y" || msg.String() == "Y" {
			t.busy = "deleting"
		}
		return t.confirm.Update(msg)
	}
	if tag, ok := t.Selected(); ok && !t.Capturing() && key.Matches(msg, t.keyDelete) {
		t.busy = "planning"
		return planDelete(t.ctx, t.ID(), t.repo+":"+tag.Name)
	}
	return t.List.Update(msg)
}

func (t *Tags) row(tag regclient.Tag) components.Row {
	st := t.ctx.Styles
	size := ""
	if tag.ImageSize > 0 {
		size = text.Bytes(tag.ImageSize) // config and layers; an index's images summed
	}
	return components.Row{Key: tag.Name, Cells: []string{
		st.Bold.Render(text.OneLine(tag.Name)), st.Dim.Render(text.ShortDigest(tag.Digest)), size,
		st.Dim.Render(text.Since(tag.UpdatedAt, t.ctx.Now()))}}
}

func (t *Tags) head() string {
	st := t.ctx.Styles
	return st.Bold.Render(text.OneLine(t.repo)) + st.Dim.Render(" · "+text.Plural(len(t.Items()), "tag", "tags"))
}

func (t *Tags) Capturing() bool { return t.List.Capturing() || t.confirm.Active() }
func (t *Tags) Animating() bool { return t.List.Animating() || t.busy != "" }

func (t *Tags) ShortHelp() []key.Binding {
	k := t.ctx.Keys
	return []key.Binding{k.Open, t.keyDelete, k.Filter, k.Back}
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

// askDelete puts the plan to the user. A tag is deleted alone where the
// registry can (OCI 1.1): its manifest and the other tags stay. Deleting
// a digest — or a tag where the registry cannot delete one alone —
// removes every tag on the manifest, and the question names them.
func askDelete(ctx *common.Context, confirm *components.Confirm, owner int, repo string, msg planMsg) tea.Cmd {
	if msg.err != nil {
		return common.Error(msg.err)
	}
	tagName, isTag := tagOf(msg.ref)
	if isTag && !msg.noTagDelete {
		var others []string
		for _, t := range msg.plan.Tags {
			if t != tagName {
				others = append(others, text.OneLine(t))
			}
		}
		stays := "Its manifest stays."
		if len(others) > 0 {
			stays = "Its manifest stays, with " + tagList(others) + "."
		}
		confirm.Ask(fmt.Sprintf("Delete the tag %s? %s", text.OneLine(msg.ref), stays), deleteTag(ctx, owner, repo, msg))
		return nil
	}
	what := "no tags"
	if len(msg.plan.Tags) > 0 {
		what = tagList(msg.plan.Tags)
	}
	cause := ""
	if msg.noTagDelete {
		cause = "The registry cannot delete a tag alone. "
	}
	digest := msg.plan.Digest
	confirm.Ask(fmt.Sprintf("%sDelete %s? It removes the manifest %s and %s.", cause, text.OneLine(msg.ref), text.ShortDigest(digest.DigestStr()), what),
		deleteDigest(ctx, owner, repo, digest, "the manifest with "+what))
	return nil
}

// tagOf is the tag of a reference written REPO:TAG, as the views make them.
func tagOf(ref string) (string, bool) {
	if strings.Contains(ref, "@") {
		return "", false
	}
	i := strings.LastIndex(ref, ":")
	if i < 0 || strings.Contains(ref[i:], "/") {
		return "", false
	}
	return ref[i+1:], true
}

// tagList is "the tag a" or "the tags a, b".
func tagList(tags []string) string {
	if len(tags) == 1 {
		return "the tag " + text.OneLine(tags[0])
	}
	return "the tags " + text.OneLine(strings.Join(tags, ", "))
}

// deleteTag deletes the tag alone; where the registry cannot, it puts the
// manifest's deletion to the user instead.
func deleteTag(ctx *common.Context, owner int, repo string, plan planMsg) tea.Cmd {
	reg, err := ctx.Registry()
	if err != nil {
		return common.Error(err)
	}
	c := ctx.Ctx
	return func() tea.Msg {
		ref, err := reg.ParseReference(plan.ref)
		tag, ok := ref.(name.Tag)
		if err != nil || !ok {
			return deletedMsg{owner: owner, repo: repo, err: fmt.Errorf("%s is not a tag", plan.ref)}
		}
		done, err := reg.DeleteTag(c, tag)
		if err == nil && !done {
			plan.noTagDelete = true
			return plan
		}
		return deletedMsg{owner: owner, repo: repo, what: "the tag " + text.OneLine(tag.TagStr()), err: err}
	}
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
	return common.Status("Deleted " + msg.what + ".")
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
