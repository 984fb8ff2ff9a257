package issues

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
	"github.com/forgehq/forge/tui/extedit"
)

// commentMsg is the outcome of a comment sent: err when the service
// said no. A send that got no answer (Unanswered) reads the thread
// again: found says the comment is there after all; unsure that the
// thread could not be read either, so forge does not know.
type commentMsg struct {
	owner  int
	err    error
	found  bool
	unsure bool
}

// closeMsg is the answer yes to "Close #N?".
type closeMsg struct{ owner int }

type stateMsg struct {
	owner int
	issue *client.Issue
	err   error
}

// editorRows is the height of the comment editor.
const editorRows = 5

// View is one issue: its body and comments rendered as markdown, with keys
// to comment, close and reopen.
type View struct {
	ctx   *common.Context
	id    int
	repo  client.RepoName
	issue *client.Issue // as the list had it until the full read arrives
	load  common.Load
	// perms are the caller's rights on the repository, as the service
	// reports them (unknown until loaded, or when it does not say).
	perms   common.Perms
	confirm *components.Confirm
	pager   *components.Pager
	search  *components.Search
	editor  *components.Editor
	// composing: the comment editor has the keys. The draft stays when
	// it is hidden, and after a failed send.
	composing bool
	sending   string // "comment", "close", "reopen" while one is in flight
	// unsure: the last comment sent got no answer and the thread could
	// not be read since: it may be there. The next ctrl+s reads the
	// thread first. sentAs counts the comments of the account with the
	// same body the thread held before that send.
	unsure bool
	sentAs int
	toEnd  bool // show the end once the issue is read again (a new comment)
	width  int
	height int
	drawnW int
	stale  bool

	keyComment, keyClose, keyCloseShort, keyReopen, keySend, keyHide key.Binding
}

// NewView returns the page of an issue; is may hold only what a list
// knows (the full issue and comments load at once).
func NewView(ctx *common.Context, repo client.RepoName, is *client.Issue) *View {
	v := &View{ctx: ctx, id: ctx.NewID(), repo: repo, issue: is, pager: components.NewPager(ctx), confirm: components.NewConfirm(ctx), stale: true}
	v.search = components.NewSearch(ctx, v.pager, "the issue")
	v.editor = components.NewEditor(ctx, true)
	v.editor.Placeholder = "Leave a comment (markdown)"
	v.keyComment = common.Binding("c", "comment", "c")
	v.keyClose = common.Binding("x", "close (asks first)", "x")
	v.keyCloseShort = common.Binding("x", "close", "x")
	v.keyReopen = common.Binding("o", "reopen issue", "o")
	v.keySend = common.Binding("ctrl+s", "send comment", "ctrl+s", "alt+enter")
	v.keyHide = common.Binding("esc/ctrl+c", "hide editor (draft kept)", "esc")
	// A draft left by the last launch comes back in the editor, shown
	// but without the focus: keys are the page's until c (the habitual c
	// continues the draft rather than typing into it).
	var draft string
	if ctx.Keep.Load(v.draftName(), &draft) && draft != "" {
		v.editor.SetValue(draft)
	}
	return v
}

func (v *View) Init() tea.Cmd { return tea.Batch(v.fetch(), v.fetchPerms()) }

// fetchPerms asks what the caller may do in the repository, so that
// close and reopen are offered only to those the service lets do it.
func (v *View) fetchPerms() tea.Cmd {
	return v.perms.Fetch(v.ctx, v.id, v.repo)
}

// mayChangeState reports whether the caller may close or reopen the
// issue: its author, or anyone with write access. Unknown rights (not
// loaded yet, a service that does not report them, an account whose
// login is not known yet) let the service decide.
func (v *View) mayChangeState() bool {
	return v.perms.MayWrite() || v.ctx.User == "" || strings.EqualFold(v.issue.User.Login, v.ctx.User)
}

// Refresh reloads the issue.
func (v *View) Refresh() tea.Cmd { return v.fetch() }

func (v *View) fetch() tea.Cmd {
	repo, n := v.repo, v.issue.Number
	return common.LoadREST(v.ctx, &v.load, v.id, func(ctx context.Context, c *client.Client) (*client.Issue, error) {
		return c.Issues.Get(ctx, repo, n)
	})
}

func (v *View) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.Result[*client.Issue]:
		if ok, failed := msg.Accept(v.id, &v.load); !ok {
			return failed
		}
		v.issue, v.stale = msg.Value, true
		if v.unsure && v.holdsComment(v.issue, strings.TrimSpace(v.editor.Value())) {
			return v.commented(commentMsg{owner: v.id, found: true})
		}
		if v.toEnd {
			v.toEnd = false
			v.setLines()
			v.drawnW, v.stale = v.width, false
			v.pager.ScrollTo(v.pager.Len())
		}
	case common.Result[*client.Repo]:
		v.perms.Take(v.id, msg)
	case closeMsg:
		if msg.owner == v.id {
			return v.setState("closed")
		}
	case commentMsg:
		return v.commented(msg)
	case extedit.DoneMsg:
		changed, cmd := v.editor.Take(msg)
		if changed {
			cmd = tea.Batch(cmd, v.saveDraft(v.editor.Value()))
		}
		return cmd
	case stateMsg:
		return v.stateChanged(msg)
	case common.ThemeMsg:
		v.stale = true
	case tea.KeyPressMsg:
		return v.key(msg)
	case tea.PasteMsg:
		if v.composing {
			return v.edit(msg)
		}
		v.search.Paste(msg)
	case tea.MouseWheelMsg:
		v.pager.Update(msg)
	}
	return nil
}

func (v *View) key(msg tea.KeyPressMsg) tea.Cmd {
	if v.confirm.Active() {
		return v.confirm.Update(msg)
	}
	if !v.composing && v.search.Key(msg) {
		v.layout()
		return nil
	}
	if key.Matches(msg, v.ctx.Keys.Edit) {
		v.compose()
		return v.editor.External()
	}
	if v.composing {
		switch {
		case key.Matches(msg, v.keySend):
			return v.sendComment()
		case key.Matches(msg, v.keyHide):
			v.hide()
		case msg.String() == "pgup" || msg.String() == "pgdown":
			v.pager.Update(msg)
		default:
			return v.edit(msg)
		}
		return nil
	}
	switch {
	case key.Matches(msg, v.keyComment):
		v.compose()
	case key.Matches(msg, v.keyClose), key.Matches(msg, v.keyReopen):
		return v.askState(key.Matches(msg, v.keyClose))
	case key.Matches(msg, v.ctx.Keys.Ask):
		return common.AskAgent(v.repo, fmt.Sprintf("issue:%d", v.issue.Number), "")
	case key.Matches(msg, keyCopyCode()):
		return v.copyCode()
	default:
		v.pager.Update(msg)
	}
	return nil
}

func (v *View) sendComment() tea.Cmd {
	body := strings.TrimSpace(v.editor.Value())
	if body == "" {
		return common.Status("The comment is empty: type it first (ctrl+s sends).")
	}
	if v.sending != "" {
		return common.Status("Wait: the " + v.sending + " is still being sent.")
	}
	c, err := v.ctx.REST()
	if err != nil {
		return common.Error(err)
	}
	check, me := v.unsure, v.ctx.Account()
	if !check {
		v.sentAs = countComment(v.issue, body, me)
	}
	v.sending = "comment"
	ctx, repo, n, owner, before := v.ctx.Ctx, v.repo, v.issue.Number, v.id, v.sentAs
	holds := func(is *client.Issue) bool { return countComment(is, body, me) > before }
	return func() tea.Msg {
		if check {
			// The last send got no answer: send only if it is not there.
			is, err := c.Issues.Get(ctx, repo, n)
			if err != nil {
				return commentMsg{owner: owner, err: err, unsure: true}
			}
			if holds(is) {
				return commentMsg{owner: owner, found: true}
			}
		}
		_, err := c.Issues.Comment(ctx, repo, n, body)
		if !client.Unanswered(err) {
			return commentMsg{owner: owner, err: err}
		}
		// No answer: the service may have taken it. The thread says.
		is, rerr := c.Issues.Get(ctx, repo, n)
		switch {
		case rerr != nil:
			return commentMsg{owner: owner, err: err, unsure: true}
		case holds(is):
			return commentMsg{owner: owner, found: true}
		}
		return commentMsg{owner: owner, err: err}
	}
}

func (v *View) commented(msg commentMsg) tea.Cmd {
	if msg.owner != v.id {
		return nil
	}
	v.sending = ""
	v.unsure = msg.unsure
	switch {
	case msg.unsure:
		// The draft stays, and the next ctrl+s looks before it sends.
		return common.Error(fmt.Errorf("the comment may have been sent: %w, and the thread could not be read again to see (the draft is kept: ctrl+s reads the thread before sending again, r reads it now)", msg.err))
	case msg.err != nil && client.Unanswered(msg.err):
		return common.Error(fmt.Errorf("the comment was not sent: %w, and the thread read again does not hold it (the draft is kept: ctrl+s sends it)", msg.err))
	case msg.err != nil:
		// The draft stays in the editor, to send again.
		return common.Error(fmt.Errorf("the comment was not sent (the draft is kept): %w", msg.err))
	}
	v.editor.Reset()
	v.toEnd = true
	v.hide()
	n := v.issue.Number
	changed := *v.issue
	changed.Comments++
	note := fmt.Sprintf("Commented on #%d.", n)
	if msg.found {
		note = fmt.Sprintf("Commented on #%d: the service answered late, the thread read again holds the comment.", n)
	}
	return tea.Batch(v.saveDraft(""), v.fetch(), common.Status(note),
		func() tea.Msg { return common.IssueChangedMsg{Repo: v.repo, Issue: &changed} })
}

// countComment counts the comments of is that me (any author when
// "") wrote with body: a send that got no answer is known to have
// arrived when the thread read again holds one more.
func countComment(is *client.Issue, body, me string) int {
	n := 0
	for _, cm := range is.CommentsList {
		if strings.TrimSpace(cm.Body) == body && (me == "" || strings.EqualFold(cm.User.Login, me)) {
			n++
		}
	}
	return n
}

// holdsComment reports whether is holds the comment whose send got no
// answer.
func (v *View) holdsComment(is *client.Issue, body string) bool {
	return body != "" && countComment(is, body, v.ctx.Account()) > v.sentAs
}

// askState closes (after asking) or reopens the issue, when the caller
// may.
func (v *View) askState(close bool) tea.Cmd {
	state, verb := "open", "reopen"
	if close {
		state, verb = "closed", "close"
	}
	switch {
	case !v.mayChangeState():
		return common.Status(fmt.Sprintf("Only the author of #%d or someone with write access to %s may %s it.", v.issue.Number, v.repo, verb))
	case v.issue.State == state:
		return common.Status(fmt.Sprintf("#%d is already %s.", v.issue.Number, state))
	case !close:
		return v.setState(state)
	}
	owner := v.id
	v.confirm.Ask(fmt.Sprintf("Close #%d %s?", v.issue.Number, v.issue.Title), func() tea.Msg { return closeMsg{owner} })
	return nil
}

func (v *View) setState(state string) tea.Cmd {
	verb := map[string]string{"closed": "close", "open": "reopen"}[state]
	if v.issue.State == state {
		return common.Status(fmt.Sprintf("#%d is already %s.", v.issue.Number, state))
	}
	if v.sending != "" {
		return common.Status("Wait: the " + v.sending + " is still being sent.")
	}
	c, err := v.ctx.REST()
	if err != nil {
		return common.Error(err)
	}
	v.sending = verb
	ctx, repo, n, owner := v.ctx.Ctx, v.repo, v.issue.Number, v.id
	return func() tea.Msg {
		is, err := c.Issues.SetState(ctx, repo, n, state)
		return stateMsg{owner: owner, issue: is, err: err}
	}
}

func (v *View) stateChanged(msg stateMsg) tea.Cmd {
	if msg.owner != v.id {
		return nil
	}
	verb := v.sending
	v.sending = ""
	if msg.err != nil {
		return common.Error(msg.err)
	}
	updated := *v.issue
	updated.State = msg.issue.State
	if msg.issue.Title != "" {
		updated = *msg.issue
		if len(updated.CommentsList) == 0 {
			updated.CommentsList = v.issue.CommentsList
		}
	}
	v.issue, v.stale = &updated, true
	done := map[string]string{"close": "Closed", "reopen": "Reopened"}[verb]
	changed := updated
	return tea.Batch(common.Status(fmt.Sprintf("%s #%d.", done, updated.Number)),
		func() tea.Msg { return common.IssueChangedMsg{Repo: v.repo, Issue: &changed} })
}

func (v *View) SetSize(width, height int) {
	v.width, v.height = width, height
	v.layout()
}

// layout shares the height between the page and, when open, the editor.
func (v *View) layout() {
	h := v.height
	if v.search.Active() {
		h--
	}
	if v.editorShown() {
		h -= editorRows + 1
	}
	v.pager.SetSize(v.width, max(h, 1))
	v.editor.SetWidth(v.width)
	v.editor.SetHeight(editorRows)
}

// render draws the issue: a header, the body and each comment.
func (v *View) render() []string {
	st := v.ctx.Styles
	is := v.issue
	w := v.width
	var lines []string
	title := st.Bold.Render(text.OneLine(is.Title)) + st.Dim.Render(fmt.Sprintf(" #%d", is.Number))
	lines = append(lines, common.Fit(title, w))
	badge := st.Success.Render("● open")
	if is.State == "closed" {
		badge = st.Failure.Render("● closed")
	}
	meta := fmt.Sprintf(" · opened by %s %s · %s", text.OneLine(is.User.Login), text.Since(is.CreatedAt.Time, v.ctx.Now()),
		text.Plural(max(len(is.CommentsList), int(is.Comments)), "comment", "comments"))
	lines = append(lines, common.Fit(badge+st.Dim.Render(meta), w), "")
	if !v.load.Done && v.load.Busy {
		return append(lines, st.Accent.Render(v.ctx.Spinner)+" Loading the issue…")
	}
	if strings.TrimSpace(is.Body) == "" {
		lines = append(lines, st.Dim.Render("No description."))
	} else {
		lines = append(lines, v.ctx.Markdown(is.Body, w)...)
	}
	for _, cm := range is.CommentsList {
		head := fmt.Sprintf("── %s · %s ", text.OneLine(cm.User.Login), text.Since(cm.CreatedAt.Time, v.ctx.Now()))
		lines = append(lines, "", st.Accent.Render(common.Rule(head, w)))
		lines = append(lines, v.ctx.Markdown(cm.Body, w)...)
	}
	return lines
}

func (v *View) View() string {
	if client.IsNotFound(v.load.Err) {
		// Deleted, or another session's: the page read before is gone.
		return v.ctx.Placeholder(&v.load, "the issue", v.width, v.height)
	}
	if v.stale || v.drawnW != v.width {
		v.setLines()
		v.drawnW, v.stale = v.width, v.load.Busy && !v.load.Done
	}
	if v.confirm.Active() {
		return common.Pad(v.page(), v.width, v.height-1) + "\n" + v.confirm.View(v.width)
	}
	if !v.editorShown() {
		return common.Pad(v.page(), v.width, v.height)
	}
	st := v.ctx.Styles
	label := st.Bold.Render("Comment") + st.Dim.Render(" · ctrl+s sends · esc or ctrl+c hides (the draft is kept)")
	switch {
	case !v.composing:
		label = st.Dim.Render("Comment draft (kept) · c continues it")
	case v.sending == "comment":
		label = st.Accent.Render(v.ctx.Spinner) + " Sending the comment…"
	}
	page := common.Pad(v.page(), v.width, v.height-editorRows-1)
	return common.Pad(page+"\n"+label+"\n"+v.editor.View(), v.width, v.height)
}

// page is the issue as the pager shows it, and the search's line under
// it while one is on.
func (v *View) page() string {
	if !v.search.Active() {
		return v.pager.View()
	}
	return common.Pad(v.pager.View(), v.width, v.pager.Height()) + "\n" + v.search.View(v.width)
}

// editorShown: the editor is drawn while composing, and while it holds a
// draft (dim, without the focus).
func (v *View) editorShown() bool {
	return v.composing || strings.TrimSpace(v.editor.Value()) != ""
}

func (v *View) Title() string {
	return fmt.Sprintf("#%d %s", v.issue.Number, text.OneLine(v.issue.Title))
}

// Link is the issue's web page.
func (v *View) Link() string { return v.issue.HTMLURL }

func (v *View) Capturing() bool { return v.composing || v.confirm.Active() || v.search.Typing() }

// CanGoBack: esc clears a search before it leaves the page.
func (v *View) CanGoBack() bool { return !v.composing && v.search.Active() }

// setLines draws the issue into the pager, and finds a search's matches
// in the new lines.
func (v *View) setLines() {
	v.pager.SetLines(v.render())
	v.search.Rescan()
}
func (v *View) Animating() bool { return v.load.Busy || v.sending != "" }

func (v *View) ShortHelp() []key.Binding {
	if v.composing {
		return []key.Binding{v.keySend, v.ctx.Keys.Edit, v.keyHide}
	}
	if v.confirm.Active() {
		return []key.Binding{common.Binding("y", "close it", "y"), common.Binding("n/esc", "keep it open", "n")}
	}
	if keys := v.search.ShortHelp(); keys != nil {
		return keys
	}
	k := v.ctx.Keys
	// The help line says just "close", to leave room: the question says
	// the rest.
	return append([]key.Binding{v.keyComment}, append(v.stateKeys(v.keyCloseShort), k.Ask, k.Down, k.Back)...)
}

// stateKeys are the close and reopen keys the caller may use: the one
// that changes the issue's state, none without the right to.
func (v *View) stateKeys(closeKey key.Binding) []key.Binding {
	switch {
	case !v.mayChangeState():
		return nil
	case v.issue.State == "closed":
		return []key.Binding{v.keyReopen}
	}
	return []key.Binding{closeKey}
}

func (v *View) FullHelp() [][]key.Binding {
	k := v.ctx.Keys
	return [][]key.Binding{append(v.pager.KeyHelp(), components.KeySearch(), components.KeyNext()), append([]key.Binding{v.keyComment, v.keySend, k.Edit, v.keyHide}, append(v.stateKeys(v.keyClose), k.Ask, k.Refresh, k.Copy, keyCopyCode(), k.Browse)...)}
}

// draftName names the comment draft in the keep.
func (v *View) draftName() string {
	return fmt.Sprintf("comment\n%s#%d", v.repo, v.issue.Number)
}

// edit gives a key or a paste to the editor, keeping the draft as it
// changes.
func (v *View) edit(msg tea.Msg) tea.Cmd {
	before := v.editor.Value()
	v.editor.Update(msg)
	if after := v.editor.Value(); after != before {
		return v.saveDraft(after)
	}
	return nil
}

func (v *View) saveDraft(draft string) tea.Cmd {
	var d any
	if draft != "" {
		d = draft
	}
	return common.Error(v.ctx.Keep.Save(v.draftName(), v.draftWhat(), d))
}

// compose shows the comment editor with the keys.
func (v *View) compose() {
	v.composing = true
	v.editor.Focus()
	v.layout()
}

// hide hides the editor; the draft stays.
func (v *View) hide() {
	v.composing = false
	v.editor.Blur()
	v.layout()
}

// Interrupt: Ctrl-C in the editor hides it, as esc does, keeping the
// draft (its footer says so).
func (v *View) Interrupt() (tea.Cmd, bool) {
	if !v.composing {
		return nil, false
	}
	v.hide()
	return common.Status("The draft is kept: c brings the editor back."), true
}

// Unsent names the comment draft, making sure it is kept: another
// program on the account may have sent or dropped the copy on disk.
func (v *View) Unsent() string {
	if strings.TrimSpace(v.editor.Value()) == "" {
		return ""
	}
	if !v.ctx.Keep.Holds(v.draftName()) {
		_ = v.ctx.Keep.Save(v.draftName(), v.draftWhat(), v.editor.Value())
	}
	return v.draftWhat()
}

func (v *View) draftWhat() string {
	return fmt.Sprintf("the comment draft on %s#%d", v.repo, v.issue.Number)
}

// keyCopyCode copies the issue's last code block; built when asked for,
// never at package init.
func keyCopyCode() key.Binding { return common.Binding("Y", "copy the last code block", "Y") }

// copyCode copies the last fenced code block of the issue — the latest
// comment's that has one, else the body's — cleaned for the terminal it
// will be pasted into.
func (v *View) copyCode() tea.Cmd {
	texts := []string{v.issue.Body}
	for _, c := range v.issue.CommentsList {
		texts = append(texts, c.Body)
	}
	for i := len(texts) - 1; i >= 0; i-- {
		if block, ok := common.LastCodeBlock(texts[i]); ok {
			return common.Copy(text.Sanitize(block), "the code block")
		}
	}
	return common.Status("This issue has no code block.")
}
