package repos

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
	"github.com/forgehq/forge/tui/tuitest"
)

func TestListFiltersAndOpens(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	ctx := tuitest.Context(t, srv, "alice")
	d := tuitest.Drive(t, NewList(ctx), 80, 20)
	d.UntilView("alice/webapp", "alice/infra", "private", "Deployment scripts", "2 repositories")

	// Filter as you type: every key narrows the list at once.
	d.Key("/")
	if c := d.C.(common.Capturer); !c.Capturing() {
		t.Fatal("/ did not start the filter")
	}
	d.Type("INF")
	v := d.View()
	if !strings.Contains(v, "alice/infra") || strings.Contains(v, "alice/webapp") || !strings.Contains(v, "1 match") {
		t.Fatalf("filter INF:\n%s", v)
	}
	d.Key("enter")
	if d.C.(common.Capturer).Capturing() {
		t.Fatal("enter did not end the typing of the filter")
	}
	// enter opens the repository and makes it the current one.
	d.Key("enter")
	d.Until("the repository's page and choice", func() bool {
		return d.Seen(func(m tea.Msg) bool {
			p, ok := m.(common.PushMsg)
			return ok && p.C.Title() == "alice/infra"
		}) && d.Seen(func(m tea.Msg) bool {
			return m == common.RepoChosenMsg{Repo: client.RepoName{Owner: "alice", Name: "infra"}}
		})
	})
	// esc clears the filter before anything else.
	if !d.C.(common.Backer).CanGoBack() {
		t.Fatal("a filter is set, yet esc would leave")
	}
	d.Key("esc")
	if v := d.View(); !strings.Contains(v, "alice/webapp") {
		t.Fatalf("esc did not clear the filter:\n%s", v)
	}
}

func TestListNotLoggedIn(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	ctx := tuitest.ContextWithout(t, srv, "alice", "FORGE_TOKEN")
	d := tuitest.Drive(t, NewList(ctx), 60, 10)
	v := d.UntilView("not logged in", "r retries")
	if !strings.Contains(strings.Join(strings.Fields(v), " "), "forge auth login") {
		t.Fatalf("the error does not say how to log in:\n%s", v)
	}
}

func TestPageSections(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	ctx := tuitest.Context(t, srv, "alice")
	repo := &client.Repo{FullName: "alice/webapp", Name: "webapp", Description: "A small web application in Go"}
	d := tuitest.Drive(t, NewPage(ctx, repo), 80, 20)
	d.UntilView("A small web application in Go", "Support graceful shutdown", "Open issues")

	steps := []struct {
		key  string
		want []string
	}{
		{"right", []string{"Structured logging with slog", "merged", "draft", "slog → main"}},
		{"l", []string{"v0.3.0-rc.1", "prerelease", "First release"}},
		{"]", []string{"README: how to run", "Alice Martin"}},
		{"right", []string{"docs/", "internal/", "main.go", "196 B"}},
		{"right", []string{"bob", "write", "dave", "read"}},
		{"right", []string{"Support graceful shutdown"}}, // wraps around
		{"left", []string{"bob", "write"}},
	}
	for _, s := range steps {
		d.Key(s.key)
		d.UntilView(s.want...)
	}
}

func TestFilesBrowseAndPreview(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	ctx := tuitest.Context(t, srv, "alice")
	f := newFiles(ctx, tuitest.Webapp)
	d := tuitest.Drive(t, f, 80, 20)
	d.UntilView("docs/", "main.go")
	if f.CanGoBack() {
		t.Fatal("at the top, esc should leave the page")
	}
	// Directories first: .forge, docs, internal; docs is the second.
	d.Key("j", "enter")
	d.UntilView("/docs", "deploy.md")
	if !f.CanGoBack() {
		t.Fatal("in a directory, esc should go up")
	}
	d.Key("esc")
	d.UntilView("main.go", "README.md")
	if sel, _ := f.table.Selected(); sel.Key != "docs" {
		t.Errorf("coming up, the cursor is on %q, not docs", sel.Key)
	}

	d.Key("G", "enter")
	var preview common.Component
	d.Until("a preview of main.go", func() bool {
		return d.Seen(func(m tea.Msg) bool {
			p, ok := m.(common.PushMsg)
			if ok {
				preview = p.C
			}
			return ok
		})
	})
	pv := tuitest.Drive(t, preview, 80, 20)
	v := pv.UntilView("main.go · 196 B", "package main", `http.ListenAndServe(":8080", nil)`)
	if !strings.Contains(v, " 1 package main") {
		t.Errorf("no line numbers:\n%s", v)
	}
}

func TestDocRendersForWidth(t *testing.T) {
	ctx := tuitest.Context(t, tuitest.Server(t), "alice")
	calls := 0
	doc := components.NewDoc(ctx, "x", func(w int) []string {
		calls++
		return []string{strings.Repeat("x", w)}
	})
	doc.SetSize(30, 3)
	doc.View()
	doc.View()
	doc.SetSize(40, 3)
	if v := doc.View(); !strings.Contains(v, strings.Repeat("x", 40)) || calls != 2 {
		t.Fatalf("calls %d, view %q", calls, v)
	}
}
