package components

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/tuitest"
)

type releases = common.Result[[]*client.Release]

// releaseList is a List of repo's releases on a reference server, as
// alice; opened records the tags enter opened.
func releaseList(t *testing.T, ctx *common.Context, repo string) (*List[*client.Release], *[]string) {
	t.Helper()
	name, err := client.ParseRepoName(repo)
	if err != nil {
		t.Fatal(err)
	}
	l := NewList[*client.Release](ctx, "Releases", "releases", Column{Title: "TAG", Flex: 1})
	l.Table().Empty = "No releases."
	l.Fetch = REST(ctx, func(cx context.Context, c *client.Client) ([]*client.Release, error) {
		return client.Collect(c.Releases.List(cx, name, client.ListOptions{}), 0)
	})
	l.Row = func(r *client.Release) Row { return Row{Key: r.TagName, Cells: []string{r.TagName}} }
	var opened []string
	l.Open = func(r *client.Release) tea.Cmd {
		opened = append(opened, r.TagName)
		return nil
	}
	l.SetSize(60, 10)
	return l, &opened
}

func tags(l *List[*client.Release]) string { return tagsOf(l.Items()) }

func tagsOf(rs []*client.Release) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.TagName)
	}
	return strings.Join(out, " ")
}

// An answer is taken only by the list that asked, and only for its
// latest request: the refresh pressed twice, the first answer arriving
// last, must not overwrite the second.
func TestListDropsStaleAndForeignAnswers(t *testing.T) {
	ctx := tuitest.Context(t, tuitest.Server(t), "alice")
	l, _ := releaseList(t, ctx, "alice/webapp")
	first, second := l.Refresh(), l.Refresh()
	older, newer := first().(releases), second().(releases)
	if older.Err != nil || newer.Err != nil || len(newer.Value) == 0 {
		t.Fatalf("loads: %v, %v, %d releases", older.Err, newer.Err, len(newer.Value))
	}
	want := tagsOf(newer.Value)

	other, _ := releaseList(t, ctx, "alice/webapp")
	foreign := releases{Owner: other.ID(), Gen: newer.Gen, Value: newer.Value[:1]}
	if cmd := l.Update(foreign); cmd != nil || len(l.Items()) != 0 || !l.Loading() {
		t.Fatalf("took another list's answer: %q, loading %v", tags(l), l.Loading())
	}

	l.Update(newer)
	if got := tags(l); got != want || l.Loading() {
		t.Fatalf("after the latest answer: %q (want %q), loading %v", got, want, l.Loading())
	}
	older.Value, older.Err = older.Value[:1], errors.New("the older answer")
	if cmd := l.Update(older); cmd != nil {
		t.Errorf("a stale answer produced a command (%T)", cmd())
	}
	if got := tags(l); got != want || l.Err() != nil {
		t.Errorf("a stale answer was taken: %q, err %v", got, l.Err())
	}
	if v := l.View(); !strings.Contains(v, "v0.1.0") {
		t.Errorf("view:\n%s", v)
	}
}

// A failed first load shows the error and how to retry, and reports it in
// the status line; a failed reload keeps the rows already shown.
func TestListError(t *testing.T) {
	ctx := tuitest.Context(t, tuitest.Server(t), "alice")
	l, _ := releaseList(t, ctx, "alice/no-such-repo")
	d := tuitest.Drive(t, l, 60, 10)
	v := d.UntilView("✗", "r retries")
	if l.Err() == nil || l.Done() {
		t.Fatalf("err %v, done %v:\n%s", l.Err(), l.Done(), v)
	}
	d.Until("the error in the status line", func() bool {
		return d.Seen(func(m tea.Msg) bool { s, ok := m.(common.StatusMsg); return ok && s.Err })
	})

	l, _ = releaseList(t, ctx, "alice/webapp")
	d = tuitest.Drive(t, l, 60, 10)
	d.UntilView("v0.1.0")
	failed := releases{Owner: l.ID(), Gen: l.load.Start(), Err: errors.New("connection reset")}
	if cmd := l.Update(failed); cmd == nil {
		t.Error("a failed reload said nothing")
	}
	if v := d.View(); !strings.Contains(v, "v0.1.0") || strings.Contains(v, "r retries") {
		t.Errorf("a failed reload lost the rows:\n%s", v)
	}
}

// A failure before any request (no client: no token) shows at once.
func TestListFetchFailsAtOnce(t *testing.T) {
	ctx := tuitest.Context(t, tuitest.Server(t), "alice")
	l, _ := releaseList(t, ctx, "alice/webapp")
	l.Fetch = func() (Work[*client.Release], error) { return nil, errors.New("not logged in: run `forge auth login`") }
	if cmd := l.Init(); cmd != nil {
		t.Fatal("a load started without a client")
	}
	if v := l.View(); !strings.Contains(v, "not logged in") || l.Loading() {
		t.Errorf("view:\n%s", v)
	}
}

func TestListEmpty(t *testing.T) {
	ctx := tuitest.Context(t, tuitest.Server(t), "alice")
	l, opened := releaseList(t, ctx, "alice/infra")
	d := tuitest.Drive(t, l, 60, 10)
	d.UntilView("No releases.")
	if !l.Done() || len(l.Items()) != 0 {
		t.Fatalf("done %v, %d items", l.Done(), len(l.Items()))
	}
	d.Key("enter")
	if len(*opened) != 0 {
		t.Errorf("enter on an empty list opened %v", *opened)
	}
}

// Enter opens the item under the cursor, also when Keep hides some and
// the cursor was put there by SelectFirst.
func TestListOpen(t *testing.T) {
	ctx := tuitest.Context(t, tuitest.Server(t), "alice")
	l, opened := releaseList(t, ctx, "alice/webapp")
	d := tuitest.Drive(t, l, 60, 10)
	d.UntilView("v0.1.0")
	first := l.Items()[0].TagName
	d.Key("enter")
	d.Key("j", "enter")
	if len(*opened) != 2 || (*opened)[0] != first || (*opened)[1] != l.Items()[1].TagName {
		t.Fatalf("opened %v; the items are %s", *opened, tags(l))
	}

	l.Keep = func(r *client.Release) bool { return !r.Prerelease }
	l.Redraw()
	if strings.Contains(d.View(), "v0.3.0-rc.1") {
		t.Fatalf("Keep did not hide the prerelease:\n%s", d.View())
	}
	if !l.SelectFirst(func(r *client.Release) bool { return r.TagName == "v0.1.0" }) {
		t.Fatal("SelectFirst found no v0.1.0")
	}
	if l.SelectFirst(func(r *client.Release) bool { return r.Prerelease }) {
		t.Error("SelectFirst chose a hidden item")
	}
	*opened = nil
	d.Key("enter")
	if len(*opened) != 1 || (*opened)[0] != "v0.1.0" {
		t.Errorf("opened %v, want v0.1.0", *opened)
	}
}

// TestListSaysItsAge: a list whose items were read a while ago says so
// beside its head.
func TestListSaysItsAge(t *testing.T) {
	ctx := tuitest.Context(t, tuitest.Server(t), "alice")
	now := tuitest.Now
	ctx.Now = func() time.Time { return now }
	l, _ := releaseList(t, ctx, "alice/webapp")
	l.Head, l.HeadLines = func() string { return "Releases" }, 1
	d := tuitest.Drive(t, l, 60, 10)
	if v := d.UntilView("Releases"); strings.Contains(v, "read ") {
		t.Fatalf("a list read just now says its age:\n%s", v)
	}
	now = now.Add(5 * time.Minute)
	if v := d.View(); !strings.Contains(v, "Releases · read 5m ago, r reads again") {
		t.Fatalf("no age:\n%s", v)
	}
}

// TestSectionShownAgainReadsAgain: a section shown again reads again,
// as a tab does; the first time it starts.
func TestSectionShownAgainReadsAgain(t *testing.T) {
	ctx := tuitest.Context(t, tuitest.Server(t), "alice")
	a, _ := releaseList(t, ctx, "alice/webapp")
	b, _ := releaseList(t, ctx, "alice/infra")
	p := NewSectionPage(ctx, "Repo", func() string { return "head" }, a, b)
	d := tuitest.Drive(t, p, 80, 20)
	d.Until("the first section's load", func() bool { return a.Done() })
	d.Run(p.Show(1))
	d.Until("the second section's load", func() bool { return b.Done() })
	d.Run(p.Show(0))
	if !a.Loading() {
		t.Error("the first section shown again did not read again")
	}
}

// TestListWarnsOfADeadFilter: a filter saved on a key the view takes
// first is said in the status line as the list opens.
func TestListWarnsOfADeadFilter(t *testing.T) {
	ctx := tuitest.Context(t, tuitest.Server(t), "alice")
	l, _ := releaseList(t, ctx, "alice/webapp")
	l.Keys = []key.Binding{common.Binding("n", "new release", "n")}
	l.Saved = map[string]string{"n": "v1", "m": "v2"}
	d := tuitest.Drive(t, l, 60, 10)
	d.Until("the warning", func() bool {
		return d.Seen(func(m tea.Msg) bool {
			s, ok := m.(common.StatusMsg)
			return ok && s.Err && strings.Contains(s.Text, `the filter "v1" saved on n is never typed: n is new release here`)
		})
	})
}
