// Package issues holds the TUI's issue views: a repository's issues with a
// state filter, an issue with its body and comments rendered (comment,
// close, reopen), and the new-issue form.
package issues

import (
	"fmt"
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
)

// maxIssues caps what the list loads: the first pages of a repository
// with thousands of issues, newest first.
const maxIssues = 1000

// states are the state filter's values, in the order s cycles them.
var states = [...]string{"open", "closed", "all"}

type listMsg struct {
	owner, gen int
	issues     []*client.Issue
	err        error
}

// List is a repository's issues.
type List struct {
	ctx    *common.Context
	id     int
	repo   client.RepoName
	state  int // index into states
	table  *components.Table
	load   common.Load
	issues []*client.Issue
	form   *Form // the new-issue draft, kept when the form is left
	width  int
	height int

	keyState, keyNew key.Binding
}

// NewList returns the issues of repo, open ones first shown.
func NewList(ctx *common.Context, repo client.RepoName) *List {
	l := &List{ctx: ctx, id: ctx.NewID(), repo: repo}
	l.table = components.NewTable(ctx,
		components.Column{Title: "#", Width: 5, Right: true},
		components.Column{Title: "TITLE", Flex: 1, Min: 10},
		components.Column{Title: "AUTHOR", Width: 10},
		components.Column{Title: "CMNT", Width: 4, Right: true},
		components.Column{Title: "OPENED", Width: 8, Right: true},
	)
	l.table.Empty = "No open issues. s shows closed ones; n opens one."
	l.keyState = common.Binding("s", "state: open/closed/all", "s")
	l.keyNew = common.Binding("n", "new issue", "n")
	return l
}

// Repo is the list's repository.
func (l *List) Repo() client.RepoName { return l.repo }

func (l *List) Init() tea.Cmd { return l.fetch() }

// Refresh reloads the list.
func (l *List) Refresh() tea.Cmd { return l.fetch() }

func (l *List) fetch() tea.Cmd {
	c, err := l.ctx.REST()
	if err != nil {
		l.load.Fail(err)
		return nil
	}
	gen := l.load.Start()
	ctx, repo, owner := l.ctx.Ctx, l.repo, l.id
	opts := client.IssueListOptions{State: states[l.state], ListOptions: client.ListOptions{PerPage: 100}}
	return func() tea.Msg {
		is, err := client.Collect(c.Issues.List(ctx, repo, opts), maxIssues)
		return listMsg{owner: owner, gen: gen, issues: is, err: err}
	}
}

func (l *List) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case listMsg:
		if msg.owner != l.id || !l.load.Finish(msg.gen, msg.err) {
			return nil
		}
		if msg.err != nil {
			return common.Error(msg.err)
		}
		l.issues = msg.issues
		l.setRows()
	case common.IssueChangedMsg:
		if msg.Repo == l.repo {
			l.changed(msg.Issue)
		}
	case common.ThemeMsg:
		l.setRows()
	case tea.KeyPressMsg:
		return l.key(msg)
	case tea.MouseWheelMsg, tea.PasteMsg:
		_, cmd := l.table.Update(msg)
		return cmd
	}
	return nil
}

func (l *List) key(msg tea.KeyPressMsg) tea.Cmd {
	if l.table.Capturing() {
		_, cmd := l.table.Update(msg)
		return cmd
	}
	switch {
	case key.Matches(msg, l.ctx.Keys.Open):
		if i := l.table.SelectedIndex(); i >= 0 {
			return common.Push(NewView(l.ctx, l.repo, l.issues[i]))
		}
	case key.Matches(msg, l.keyState):
		l.state = (l.state + 1) % len(states)
		l.table.Empty = "No " + states[l.state] + " issues."
		if states[l.state] == "all" {
			l.table.Empty = "No issues yet. n opens one."
		}
		return l.fetch()
	case key.Matches(msg, l.keyNew):
		if l.form == nil {
			l.form = NewForm(l.ctx, l.repo)
		}
		return common.Push(l.form)
	default:
		_, cmd := l.table.Update(msg)
		return cmd
	}
	return nil
}

// changed updates the list after an issue changed elsewhere: its row is
// replaced, dropped when it left the state shown, added when it is new.
func (l *List) changed(is *client.Issue) {
	if is == nil {
		return
	}
	if is.Number == 0 {
		return
	}
	fits := states[l.state] == "all" || is.State == states[l.state]
	for i, old := range l.issues {
		if old.Number != is.Number {
			continue
		}
		if !fits {
			l.issues = append(l.issues[:i], l.issues[i+1:]...)
		} else {
			if is.Title == "" {
				merged := *old
				merged.State = is.State
				is = &merged
			}
			l.issues[i] = is
		}
		l.setRows()
		return
	}
	if fits && is.Title != "" {
		l.issues = append([]*client.Issue{is}, l.issues...)
		l.setRows()
	}
}

func (l *List) setRows() {
	st := l.ctx.Styles
	now := l.ctx.Now()
	rows := make([]components.Row, len(l.issues))
	for i, is := range l.issues {
		num := "#" + strconv.FormatInt(is.Number, 10)
		if is.State == "closed" {
			num = st.Dim.Render(num)
		} else {
			num = st.Success.Render(num)
		}
		comments := ""
		if is.Comments > 0 {
			comments = strconv.FormatInt(is.Comments, 10)
		}
		rows[i] = components.Row{
			Key:   strconv.FormatInt(is.Number, 10),
			Cells: []string{num, text.OneLine(is.Title), text.OneLine(is.User.Login), comments, st.Dim.Render(text.Since(is.CreatedAt.Time, now))},
		}
	}
	l.table.SetRows(rows)
}

func (l *List) SetSize(width, height int) {
	l.width, l.height = width, height
	l.table.SetSize(width, height-1)
}

func (l *List) View() string {
	if !l.load.Done {
		return l.ctx.Placeholder(&l.load, "issues", l.width, l.height)
	}
	st := l.ctx.Styles
	head := st.Bold.Render(fmt.Sprintf("%s issues", capital(states[l.state])))
	head += st.Dim.Render(fmt.Sprintf(" · %s · s: open/closed/all · n: new", text.Plural(len(l.issues), "issue", "issues")))
	if len(l.issues) >= maxIssues {
		head += st.Dim.Render(fmt.Sprintf(" (the first %d)", maxIssues))
	}
	if l.load.Busy {
		head += " " + st.Accent.Render(l.ctx.Spinner)
	}
	return common.Pad(head+"\n"+l.table.View(), l.width, l.height)
}

func capital(s string) string { return string(s[0]-'a'+'A') + s[1:] }

func (l *List) Title() string { return "Issues" }

func (l *List) Capturing() bool { return l.table.Capturing() }
func (l *List) CanGoBack() bool { return l.table.CanGoBack() }
func (l *List) Animating() bool { return l.load.Busy }

func (l *List) ShortHelp() []key.Binding {
	k := l.ctx.Keys
	return []key.Binding{k.Open, l.keyNew, l.keyState, k.Filter}
}

func (l *List) FullHelp() [][]key.Binding {
	k := l.ctx.Keys
	return [][]key.Binding{l.table.KeyHelp(), {k.Open, l.keyNew, l.keyState, k.Refresh}}
}
