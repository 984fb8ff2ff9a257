package issues

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/tuitest"
)

func TestListStateFilter(t *testing.T) {
	t.Parallel()
	ctx := tuitest.Context(t, tuitest.Server(t), "alice")
	d := tuitest.Drive(t, NewList(ctx, tuitest.Webapp), 80, 20)
	v := d.UntilView("Open issues", "#6", "Support graceful shutdown", "4 issues")
	if strings.Contains(v, "Typo in README") {
		t.Fatalf("a closed issue in the open list:\n%s", v)
	}
	d.Key("s")
	v = d.UntilView("Closed issues", "Typo in README", "Server crashes on empty request body", "2 issues")
	if strings.Contains(v, "Support graceful shutdown") {
		t.Fatalf("an open issue in the closed list:\n%s", v)
	}
	d.Key("s")
	d.UntilView("All issues", "Typo in README", "Support graceful shutdown", "6 issues")
	d.Key("s")
	d.UntilView("Open issues", "4 issues")
}

func TestListFollowsChanges(t *testing.T) {
	t.Parallel()
	ctx := tuitest.Context(t, tuitest.Server(t), "alice")
	l := NewList(ctx, tuitest.Webapp)
	d := tuitest.Drive(t, l, 80, 20)
	d.UntilView("#6")
	// Closed elsewhere: it leaves the open list.
	d.Send(common.IssueChangedMsg{Repo: tuitest.Webapp, Issue: &client.Issue{Number: 6, State: "closed"}})
	if v := d.View(); strings.Contains(v, "graceful") || !strings.Contains(v, "3 issues") {
		t.Fatalf("#6 is still listed:\n%s", v)
	}
	// Opened elsewhere: it joins the list, first.
	d.Send(common.IssueChangedMsg{Repo: tuitest.Webapp, Issue: &client.Issue{Number: 9, Title: "Brand new", State: "open"}})
	if v := d.View(); !strings.Contains(v, "Brand new") {
		t.Fatalf("#9 is not listed:\n%s", v)
	}
	// Another repository's issue changes nothing.
	d.Send(common.IssueChangedMsg{Repo: client.RepoName{Owner: "bob", Name: "dotfiles"}, Issue: &client.Issue{Number: 2, Title: "Elsewhere", State: "open"}})
	if v := d.View(); strings.Contains(v, "Elsewhere") {
		t.Fatalf("another repository's issue is listed:\n%s", v)
	}
	// n opens the form; the same form (and its draft) each time.
	d.Key("n")
	var forms []*Form
	d.Until("the form", func() bool {
		forms = pushedForms(d)
		return len(forms) == 1
	})
	d.Key("n")
	d.Until("the form again", func() bool {
		forms = pushedForms(d)
		return len(forms) == 2
	})
	if forms[0] != forms[1] {
		t.Error("n made a new form: the draft would be lost")
	}
}

func issueState(t *testing.T, ctx *common.Context, n int64) *client.Issue {
	t.Helper()
	c, err := ctx.REST()
	if err != nil {
		t.Fatal(err)
	}
	is, err := c.Issues.Get(context.Background(), tuitest.Webapp, n)
	if err != nil {
		t.Fatal(err)
	}
	return is
}

func TestViewCommentCloseReopen(t *testing.T) {
	t.Parallel()
	ctx := tuitest.Context(t, tuitest.Server(t), "alice")
	v := NewView(ctx, tuitest.Webapp, &client.Issue{Number: 2, Title: "Document the deploy process"})
	d := tuitest.Drive(t, v, 80, 20)
	// The body and comments, rendered: *build and run* loses its stars.
	view := d.UntilView("Document the deploy process #2", "opened by dave", "The docs only say build and run. What about TLS?", "── alice · ", "Good point, I'll write it up.")
	if strings.Contains(view, "*build") {
		t.Fatalf("markdown not rendered:\n%s", view)
	}

	// A comment: c opens the editor; esc hides it and keeps the draft.
	d.Key("c")
	if !v.Capturing() {
		t.Fatal("c did not open the editor")
	}
	d.Type("Drafted")
	d.Key("esc")
	if v.Capturing() || v.editor.Value() != "Drafted" {
		t.Fatalf("esc: capturing %v, draft %q", v.Capturing(), v.editor.Value())
	}
	d.Key("c")
	d.Type(": **TLS** next")
	d.Key("ctrl+s")
	d.UntilView("Drafted: TLS next", "2 comments")
	if v.editor.Value() != "" || v.Capturing() {
		t.Fatalf("after sending: draft %q, capturing %v", v.editor.Value(), v.Capturing())
	}
	is := issueState(t, ctx, 2)
	if n := len(is.CommentsList); n != 2 || is.CommentsList[1].Body != "Drafted: **TLS** next" {
		t.Fatalf("the server has %d comments: %+v", n, is.CommentsList)
	}

	// x asks first: n keeps the issue open.
	d.Key("x")
	d.UntilView("Close #2 Document the deploy process? [y/N]")
	d.Key("n")
	d.Until("the answer no", func() bool {
		return d.Seen(func(m tea.Msg) bool { s, ok := m.(common.StatusMsg); return ok && s.Text == "Cancelled." })
	})
	if st := issueState(t, ctx, 2).State; st != "open" || strings.Contains(d.View(), "[y/N]") {
		t.Fatalf("after n the server says %s; the view:\n%s", st, d.View())
	}
	// x then y closes, o reopens: on the server, and every view is told.
	d.Key("x", "y")
	d.UntilView("● closed")
	if st := issueState(t, ctx, 2).State; st != "closed" {
		t.Fatalf("the server says %s", st)
	}
	d.Until("the news of the close", func() bool {
		return d.Seen(func(m tea.Msg) bool {
			c, ok := m.(common.IssueChangedMsg)
			return ok && c.Issue.Number == 2 && c.Issue.State == "closed"
		})
	})
	d.Key("x")
	d.Until("a note that it is closed already", func() bool {
		return d.Seen(func(m tea.Msg) bool { s, ok := m.(common.StatusMsg); return ok && s.Text == "#2 is already closed." })
	})
	d.Key("o")
	d.UntilView("● open")
	if st := issueState(t, ctx, 2).State; st != "open" {
		t.Fatalf("the server says %s", st)
	}
}

func TestViewFailedCommentKeepsDraft(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	ctx := tuitest.Context(t, srv, "alice")
	v := NewView(ctx, tuitest.Webapp, &client.Issue{Number: 3, Title: "Add a health check endpoint"})
	d := tuitest.Drive(t, v, 80, 20)
	d.UntilView("GET /healthz")
	srv.Close()
	d.Key("c")
	d.Type("Not lost")
	d.Key("ctrl+s")
	d.Until("the error", func() bool {
		return d.Seen(func(m tea.Msg) bool {
			s, ok := m.(common.StatusMsg)
			return ok && s.Err && strings.Contains(s.Text, "the draft is kept")
		})
	})
	if v.editor.Value() != "Not lost" || !v.Capturing() {
		t.Fatalf("draft %q, capturing %v", v.editor.Value(), v.Capturing())
	}
}

func TestFormCreates(t *testing.T) {
	t.Parallel()
	ctx := tuitest.Context(t, tuitest.Server(t), "alice")
	f := NewForm(ctx, tuitest.Webapp)
	d := tuitest.Drive(t, f, 80, 20)
	d.Key("ctrl+s")
	d.Until("the refusal", func() bool {
		return d.Seen(func(m tea.Msg) bool {
			s, ok := m.(common.StatusMsg)
			return ok && s.Err && strings.Contains(s.Text, "needs a title")
		})
	})
	d.Type("Add metrics")
	d.Key("tab")
	d.Type("Expose `/metrics`.")
	d.Key("enter")
	d.Type("Prometheus format.")
	d.Key("ctrl+s")
	view := opened(d, f)
	if view.issue.Number != 7 || view.issue.Title != "Add metrics" {
		t.Fatalf("the page is of %+v", view.issue)
	}
	is := issueState(t, ctx, 7)
	if is.Title != "Add metrics" || is.Body != "Expose `/metrics`.\nPrometheus format." || is.State != "open" {
		t.Fatalf("the server has %+v", is)
	}
	if f.title.Value() != "" || f.body.Value() != "" {
		t.Error("the form kept the sent issue as a draft")
	}
	// esc leaves the form (the list keeps it, with its draft).
	d.Type("Half typed")
	d.Key("esc")
	d.Until("the form to close", func() bool {
		return d.Seen(func(m tea.Msg) bool { c, ok := m.(common.CloseMsg); return ok && c.C == f })
	})
	if f.title.Value() != "Half typed" {
		t.Errorf("draft %q", f.title.Value())
	}
}

// TestCopyCodeBlock: Y copies the issue's last code block, as the
// terminal's clipboard gets it (OSC 52), and says so.
func TestCopyCodeBlock(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	ctx := tuitest.Context(t, srv, "alice")
	d := tuitest.Drive(t, NewView(ctx, tuitest.Webapp, &client.Issue{Number: 1, Title: "Server crashes on empty request body"}), 80, 20)
	d.UntilView("panic: runtime error")
	d.Key("Y")
	d.Until("the code block copied", func() bool {
		return d.Seen(func(m tea.Msg) bool {
			return fmt.Sprint(m) == "panic: runtime error: invalid memory address\n"
		}) && d.Seen(func(m tea.Msg) bool {
			s, ok := m.(common.StatusMsg)
			return ok && s.Text == "Copied the code block to the clipboard."
		})
	})
}

// pushedForms is every issue form the driven view's commands pushed, in
// order.
func pushedForms(d *tuitest.Driver) []*Form {
	var forms []*Form
	d.Seen(func(m tea.Msg) bool {
		if p, ok := m.(common.PushMsg); ok {
			if f, ok := p.C.(*Form); ok {
				forms = append(forms, f)
			}
		}
		return false
	})
	return forms
}

// TestViewSearch: / finds text in an issue's body and comments; esc
// clears the search before it leaves the page.
func TestViewSearch(t *testing.T) {
	t.Parallel()
	ctx := tuitest.Context(t, tuitest.Server(t), "alice")
	v := NewView(ctx, tuitest.Webapp, &client.Issue{Number: 2, Title: "Document the deploy process"})
	d := tuitest.Drive(t, v, 80, 20)
	d.UntilView("Good point, I'll write it up.")
	d.Key("/")
	if !v.Capturing() {
		t.Fatal("/ did not start a search")
	}
	d.Type("TLS")
	d.Key("enter")
	d.UntilView("/TLS", "match 1 of 1")
	if !v.CanGoBack() {
		t.Error("esc would leave the page with the search on")
	}
	d.Key("esc")
	if view := d.View(); strings.Contains(view, "/TLS") {
		t.Errorf("esc did not clear the search:\n%s", view)
	}
}

// TestUnsentDraftIsKeptAgain: the quit question names a comment draft as
// kept only once it is: another program on the account that sent (and so
// dropped) the same draft leaves this one's written again.
func TestUnsentDraftIsKeptAgain(t *testing.T) {
	t.Parallel()
	ctx := tuitest.Context(t, tuitest.Server(t), "alice")
	v := NewView(ctx, tuitest.Webapp, &client.Issue{Number: 2, Title: "Document the deploy process"})
	d := tuitest.Drive(t, v, 80, 20)
	d.UntilView("Good point, I'll write it up.")
	d.Key("c")
	d.Type("both had this")
	d.Key("esc")
	s, err := ctx.Settings()
	if err != nil {
		t.Fatal(err)
	}
	other := func() *common.Keep { return common.OpenKeep(ctx.Factory.CacheDir(), "alice", config.Origin(s.BaseURL)) }
	var got string
	o := other()
	if !o.Load(v.draftName(), &got) || got != "both had this" {
		t.Fatalf("the other program reads %q", got)
	}
	if err := o.Save(v.draftName(), "", nil); err != nil { // it sent the comment
		t.Fatal(err)
	}
	if v.Unsent() == "" {
		t.Fatal("the draft in the editor is not named")
	}
	if !other().Load(v.draftName(), &got) || got != "both had this" {
		t.Fatalf("the draft named as kept is not on disk: %q", got)
	}
}
