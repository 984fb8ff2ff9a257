package issues

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
	"github.com/forgehq/forge/tui/extedit"
)

// createdMsg is the outcome of a send: the issue opened, or err. After
// an attempt that got no answer (client.Unanswered) the issue list is read
// again: found says the issue is there after all (issue is it);
// unanswered that err got no answer and the list does not hold the
// issue; unsure that the list could not be read either, so forge does
// not know whether it was opened.
type createdMsg struct {
	owner      int
	issue      *client.Issue
	err        error
	found      bool
	unanswered bool
	unsure     bool
}

// Form opens a new issue: a title line and a markdown body. esc leaves it
// with the draft kept (the list holds the form, so n brings it back); a
// failed send keeps it too.
type Form struct {
	ctx     *common.Context
	id      int
	repo    client.RepoName
	title   *components.Editor
	body    *components.Editor
	focus   int // 0 title, 1 body
	sending bool
	// since is when the first attempt of this draft whose answer never
	// came was sent (zero while none is), and lookFirst that one was:
	// every later ctrl+s reads the issue list for an issue it opened
	// before it posts again, so a retry after a timeout never opens a
	// second issue (docs/DESIGN.md, "Nothing typed is lost").
	since     time.Time
	lookFirst bool
	width     int
	height    int

	keySend, keyField, keyTitle, keyLeave key.Binding
}

// maxTitle is the longest title, in characters, the reference service
// takes (its README); a service with another limit says so when asked,
// and the draft stays.
const maxTitle = 256

// NewForm returns an empty form for repo.
func NewForm(ctx *common.Context, repo client.RepoName) *Form {
	f := &Form{ctx: ctx, id: ctx.NewID(), repo: repo}
	f.title = components.NewEditor(ctx, false)
	f.title.Placeholder = "Title"
	f.body = components.NewEditor(ctx, true)
	f.body.Placeholder = "Description (markdown, optional)"
	f.title.Focus()
	f.keySend = common.Binding("ctrl+s", "open the issue", "ctrl+s")
	f.keyField = common.Binding("tab", "description", "tab", "enter")
	f.keyTitle = common.Binding("shift+tab", "title (tab types a tab)", "shift+tab")
	f.keyLeave = common.Binding("esc/ctrl+c", "leave (draft kept)", "esc")
	var d issueDraft
	if ctx.Keep.Load(f.draftName(), &d) {
		f.title.SetValue(d.Title)
		f.body.SetValue(d.Body)
	}
	return f
}

// issueDraft is the form's text as the keep holds it.
type issueDraft struct {
	Title string `json:"title,omitempty"`
	Body  string `json:"body,omitempty"`
}

func (f *Form) draftName() string { return "issue\n" + f.repo.String() }

// edit gives a key or a paste to the field in focus, keeping the draft
// as it changes.
func (f *Form) edit(msg tea.Msg) tea.Cmd {
	before := f.field().Value()
	f.field().Update(msg)
	if f.field().Value() == before {
		return nil
	}
	return f.saveDraft()
}

func (f *Form) saveDraft() tea.Cmd {
	var d any
	what := f.Unsent()
	if what != "" {
		d = issueDraft{Title: f.title.Value(), Body: f.body.Value()}
	}
	return common.Error(f.ctx.Keep.Save(f.draftName(), what, d))
}

// Interrupt: Ctrl-C leaves the form as esc does, keeping the draft.
func (f *Form) Interrupt() (tea.Cmd, bool) { return common.Close(f), true }

// Unsent names the draft.
func (f *Form) Unsent() string {
	if strings.TrimSpace(f.title.Value()+f.body.Value()) == "" {
		return ""
	}
	return "the new issue draft for " + f.repo.String()
}

func (f *Form) Init() tea.Cmd { return nil }

func (f *Form) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case createdMsg:
		if msg.owner != f.id {
			return nil
		}
		return f.created(msg)
	case tea.KeyPressMsg:
		return f.key(msg)
	case tea.PasteMsg:
		return f.edit(msg)
	case extedit.DoneMsg:
		changed, cmd := f.body.Take(msg)
		if changed {
			cmd = tea.Batch(cmd, f.saveDraft())
		}
		return cmd
	}
	return nil
}

func (f *Form) key(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, f.keySend):
		return f.send()
	case key.Matches(msg, f.keyLeave):
		return common.Close(f)
	case key.Matches(msg, f.ctx.Keys.Edit):
		// The description is the long text: it is the one edited.
		f.setFocus(1)
		return f.body.External()
	case f.focus == 0 && key.Matches(msg, f.keyField, f.keyTitle):
		f.setFocus(1)
	case f.focus == 1 && key.Matches(msg, f.keyTitle):
		f.setFocus(0)
	default:
		return f.edit(msg)
	}
	return nil
}

func (f *Form) field() *components.Editor {
	if f.focus == 0 {
		return f.title
	}
	return f.body
}

func (f *Form) setFocus(i int) {
	f.focus = i
	f.title.Blur()
	f.body.Blur()
	f.field().Focus()
}

func (f *Form) send() tea.Cmd {
	title := strings.TrimSpace(f.title.Value())
	if title == "" {
		f.setFocus(0)
		return common.Error(fmt.Errorf("an issue needs a title: type one first"))
	}
	if n := utf8.RuneCountInString(title); n > maxTitle {
		f.setFocus(0)
		return common.Error(fmt.Errorf("the title is %d characters; the service takes at most %d: shorten it (nothing was sent)", n, maxTitle))
	}
	if f.sending {
		return nil
	}
	c, err := f.ctx.REST()
	if err != nil {
		return common.Error(err)
	}
	f.sending = true
	if f.since.IsZero() {
		f.since = f.ctx.Now()
	}
	ctx, repo, owner, lookFirst, me, since := f.ctx.Ctx, f.repo, f.id, f.lookFirst, f.ctx.Account(), f.since
	in := client.IssueCreate{Title: title, Body: f.body.Value()}
	// look reads the list for an issue an attempt that got no answer
	// (cause, or an earlier one) opened: the outcome when that settles
	// the send, nil when the list does not hold it.
	look := func(cause error) *createdMsg {
		is, err := findCreated(ctx, c, repo, title, me, since)
		switch {
		case err != nil:
			return &createdMsg{owner: owner, err: cmp.Or(cause, err), unsure: true}
		case is != nil:
			return &createdMsg{owner: owner, issue: is, found: true}
		}
		return nil
	}
	return func() tea.Msg {
		if lookFirst {
			// An earlier attempt got no answer: post only if it opened
			// nothing.
			if m := look(nil); m != nil {
				return *m
			}
		}
		is, err := c.Issues.Create(ctx, repo, in)
		if !client.Unanswered(err) {
			return createdMsg{owner: owner, issue: is, err: err}
		}
		// No answer: the service may have opened it. Its list says.
		if m := look(err); m != nil {
			return *m
		}
		return createdMsg{owner: owner, err: err, unanswered: true}
	}
}

// created takes a send's outcome: the new issue's page, or the error
// with the draft kept.
func (f *Form) created(msg createdMsg) tea.Cmd {
	f.sending = false
	switch {
	case msg.unsure:
		f.lookFirst = true
		return common.Error(fmt.Errorf("the issue may have been opened: %w, and the issue list could not be read to see (the draft is kept: ctrl+s looks for it before opening it again)", msg.err))
	case msg.unanswered:
		f.lookFirst = true
		return common.Error(fmt.Errorf("the issue was not opened: %w, and the issue list read again does not hold it (the draft is kept: ctrl+s looks once more, then opens it)", msg.err))
	case msg.err != nil:
		f.since, f.lookFirst = time.Time{}, false
		return common.Error(fmt.Errorf("the issue was not opened (the draft is kept): %w", msg.err))
	}
	note := fmt.Sprintf("Opened #%d.", msg.issue.Number)
	if msg.found {
		note = fmt.Sprintf("Opened #%d: the service answered late, and its issue list holds it (it was not opened again).", msg.issue.Number)
	}
	f.since, f.lookFirst = time.Time{}, false
	f.title.Reset()
	f.body.Reset()
	f.setFocus(0)
	is := msg.issue
	return tea.Batch(f.saveDraft(), common.Replace(f, NewView(f.ctx, f.repo, is)), common.Status(note),
		func() tea.Msg { return common.IssueChangedMsg{Repo: f.repo, Issue: is} })
}

// clockSkew is how far the service's clock may run behind forge's when
// an issue's created_at is compared with the moment forge sent it.
const clockSkew = time.Minute

// findCreated looks for the issue an attempt that got no answer may have
// opened: among the newest 100 issues (services list newest first), one
// by me (any author while the account is not known) titled title,
// created since the first attempt was sent. Its title alone does not
// make it that attempt's: an older issue of the same title does not
// count.
func findCreated(ctx context.Context, c *client.Client, repo client.RepoName, title, me string, since time.Time) (*client.Issue, error) {
	n := 0
	for is, err := range c.Issues.List(ctx, repo, client.IssueListOptions{State: "all", ListOptions: client.ListOptions{PerPage: 100}}) {
		if err != nil {
			return nil, err
		}
		if is.Title == title && (me == "" || strings.EqualFold(is.User.Login, me)) && !is.CreatedAt.Time.Before(since.Add(-clockSkew)) {
			return is, nil
		}
		if n++; n == 100 {
			break
		}
	}
	return nil, nil
}

func (f *Form) SetSize(width, height int) {
	f.width, f.height = width, height
	f.title.SetWidth(width)
	f.body.SetWidth(width)
	f.body.SetHeight(max(height-5, 1))
}

func (f *Form) View() string {
	st := f.ctx.Styles
	head := st.Bold.Render("New issue in "+f.repo.String()) + st.Dim.Render(" · tab/shift+tab switch fields · ctrl+s opens it · esc leaves (the draft is kept)")
	if f.sending {
		head = st.Accent.Render(f.ctx.Spinner) + " Opening the issue…"
	}
	label := func(s string, on bool) string {
		if on {
			return st.Prompt.Render(s)
		}
		return st.Label.Render(s)
	}
	titleLabel := label("Title", f.focus == 0)
	if n := utf8.RuneCountInString(strings.TrimSpace(f.title.Value())); n > maxTitle {
		titleLabel += st.Error.Render(fmt.Sprintf(" · %d characters, at most %d", n, maxTitle))
	}
	out := head + "\n\n" + titleLabel + "\n" + f.title.View() + "\n" + label("Description", f.focus == 1) + "\n" + f.body.View()
	return common.Pad(out, f.width, f.height)
}

func (f *Form) Title() string   { return "New issue" }
func (f *Form) Capturing() bool { return true }
func (f *Form) Animating() bool { return f.sending }
func (f *Form) ShortHelp() []key.Binding {
	if f.focus == 1 {
		return []key.Binding{f.keySend, f.keyTitle, f.ctx.Keys.Edit, f.keyLeave}
	}
	return []key.Binding{f.keySend, f.keyField, f.ctx.Keys.Edit, f.keyLeave}
}
func (f *Form) FullHelp() [][]key.Binding {
	return [][]key.Binding{{f.keySend, f.keyField, f.keyTitle, f.ctx.Keys.Edit, f.keyLeave}}
}
