// Package issues holds the TUI's issue views: a repository's issues with a
// state filter, an issue with its body and comments rendered (comment,
// close, reopen), and the new-issue form.
package issues

import (
	"fmt"
	"slices"
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

// List is a repository's issues.
type List struct {
	*components.List[*client.Issue]
	ctx   *common.Context
	repo  client.RepoName
	state int   // index into states
	form  *Form // the new-issue draft, kept when the form is left

	keyState, keyNew key.Binding
}

// NewList returns the issues of repo, open ones first shown.
func NewList(ctx *common.Context, repo client.RepoName) *List {
	l := &List{ctx: ctx, repo: repo, List: components.NewList[*client.Issue](ctx, "Issues", "issues",
		components.Column{Title: "#", Width: 5, Right: true},
		components.Column{Title: "TITLE", Flex: 1, Min: 10},
		components.Column{Title: "AUTHOR", Width: 10},
		components.Column{Title: "CMNT", Width: 4, Right: true},
		components.Column{Title: "OPENED", Width: 8, Right: true},
	)}
	l.Table().Empty = "No open issues. s shows closed ones; n opens one."
	l.keyState = common.Binding("s", "state: open/closed/all", "s")
	l.keyNew = common.Binding("n", "new issue", "n")
	l.Fetch, l.Row, l.Open = l.fetch, l.row, l.open
	l.PageOf = func(is *client.Issue) string { return is.HTMLURL }
	l.Saved = ctx.Filters["issues"]
	l.Head, l.HeadLines = l.head, 1
	l.Keys = []key.Binding{l.keyNew, l.keyState}
	return l
}

// Unsent names the new-issue draft the list holds for n.
func (l *List) Unsent() string {
	if l.form == nil {
		return ""
	}
	return l.form.Unsent()
}

// Repo is the list's repository.
func (l *List) Repo() client.RepoName { return l.repo }

// fetch asks for the issues in the state shown now.
func (l *List) fetch() (components.Work[*client.Issue], error) {
	c, err := l.ctx.REST()
	if err != nil {
		return nil, err
	}
	ctx, repo := l.ctx.Ctx, l.repo
	opts := client.IssueListOptions{State: states[l.state], ListOptions: client.ListOptions{PerPage: 100}}
	return func() ([]*client.Issue, error) { return client.Collect(c.Issues.List(ctx, repo, opts), maxIssues) }, nil
}

func (l *List) open(is *client.Issue) tea.Cmd { return common.Push(NewView(l.ctx, l.repo, is)) }

func (l *List) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.IssueChangedMsg:
		if msg.Repo == l.repo {
			l.changed(msg.Issue)
		}
		return nil
	case tea.KeyPressMsg:
		if !l.Capturing() {
			return l.key(msg)
		}
	}
	return l.List.Update(msg)
}

func (l *List) key(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, l.keyState):
		l.state = (l.state + 1) % len(states)
		l.Table().Empty = "No " + states[l.state] + " issues."
		if states[l.state] == "all" {
			l.Table().Empty = "No issues yet. n opens one."
		}
		return l.Refresh()
	case key.Matches(msg, l.keyNew):
		if l.form == nil {
			l.form = NewForm(l.ctx, l.repo)
		}
		return common.Push(l.form)
	}
	return l.List.Update(msg)
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
	issues := l.Items()
	for i, old := range issues {
		if old.Number != is.Number {
			continue
		}
		if !fits {
			issues = append(issues[:i], issues[i+1:]...)
		} else {
			if is.Title == "" {
				merged := *old
				merged.State = is.State
				is = &merged
			}
			issues[i] = is
		}
		l.SetItems(issues)
		return
	}
	if fits && is.Title != "" {
		// Where a load would put it: the list is newest first, so a new
		// issue goes on top and a reopened one back among its elders.
		at := len(issues)
		for i, old := range issues {
			if old.Number < is.Number {
				at = i
				break
			}
		}
		l.SetItems(slices.Insert(issues, at, is))
	}
}

func (l *List) row(is *client.Issue) components.Row {
	st := l.ctx.Styles
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
	title := text.OneLine(is.Title)
	if states[l.state] == "all" {
		// Not by colour alone: NO_COLOR must tell them apart too.
		title = stateGlyph(st, is.State) + " " + title
	}
	return components.Row{
		Key:   strconv.FormatInt(is.Number, 10),
		Cells: []string{num, title, text.OneLine(is.User.Login), comments, st.Dim.Render(text.Since(is.CreatedAt.Time, l.ctx.Now()))},
	}
}

// stateGlyph marks an issue's state by shape: ● open, ✓ closed.
func stateGlyph(st *common.Styles, state string) string {
	if state == "closed" {
		return st.Dim.Render("✓")
	}
	return st.Success.Render("●")
}

func (l *List) head() string {
	st := l.ctx.Styles
	n := len(l.Items())
	head := st.Bold.Render(fmt.Sprintf("%s issues", text.Capitalize(states[l.state])))
	head += st.Dim.Render(fmt.Sprintf(" · %s · s: open/closed/all · n: new", text.Plural(n, "issue", "issues")))
	if states[l.state] == "all" {
		head += st.Dim.Render(" · ") + stateGlyph(st, "open") + st.Dim.Render(" open ") + stateGlyph(st, "closed") + st.Dim.Render(" closed")
	}
	if n >= maxIssues {
		head += st.Dim.Render(fmt.Sprintf(" (the first %d)", maxIssues))
	}
	if l.Loading() {
		head += " " + st.Accent.Render(l.ctx.Spinner)
	}
	return head
}

func (l *List) ShortHelp() []key.Binding {
	k := l.ctx.Keys
	return []key.Binding{k.Open, l.keyNew, l.keyState, k.Filter}
}
