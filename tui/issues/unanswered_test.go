package issues

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/tuitest"
)

// frozen stands in front of the reference server as a server that
// freezes: a comment or an issue posted reaches the service, but its
// answer never comes back (the client gives up after its timeout); while
// reads is set, reading an issue or the issue list hangs the same way.
type frozen struct {
	posts atomic.Int32
	reads atomic.Bool
}

func (f *frozen) start(t *testing.T, upstream string) string {
	t.Helper()
	u, err := url.Parse(upstream)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(u)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodPost && (strings.HasSuffix(r.URL.Path, "/comments") || strings.HasSuffix(r.URL.Path, "/issues")):
			f.posts.Add(1)
			proxy.ServeHTTP(httptest.NewRecorder(), r) // the service takes it…
			<-r.Context().Done()                       // …and its answer is lost
		case r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/issues") && f.reads.Load():
			<-r.Context().Done()
		default:
			proxy.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// through is alice's context on srv with her requests sent to the
// server at front instead, and a client timeout of a second.
func through(t *testing.T, srv *refserver.Server, front string) *common.Context {
	env := tuitest.Env(t, srv, "alice")
	env["FORGE_BASE_URL"], env["FORGE_HTTP_TIMEOUT"] = front+"/api/v2", "1"
	ctx := tuitest.Context(t, srv, "alice")
	ctx.Factory = tuitest.Factory(env)
	return ctx
}

// lossy stands in front of srv as a server that loses every POST before
// the service sees it: the client gives up after its timeout.
func lossy(t *testing.T, srv *refserver.Server) string {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			io.Copy(io.Discard, r.Body)
			<-r.Context().Done() // lost before the service saw it
			return
		}
		u, _ := url.Parse(srv.URL())
		httputil.NewSingleHostReverseProxy(u).ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// frozenView is the page of alice/webapp#3 for alice through f, with a
// client timeout of a second.
func frozenView(t *testing.T, f *frozen) (*View, *tuitest.Driver, *common.Context) {
	srv := tuitest.Server(t)
	ctx := through(t, srv, f.start(t, srv.URL()))
	v := NewView(ctx, tuitest.Webapp, &client.Issue{Number: 3, Title: "Add a health check endpoint"})
	d := tuitest.Drive(t, v, 80, 20)
	d.UntilView("GET /healthz")
	return v, d, tuitest.Context(t, srv, "alice")
}

func notice(d *tuitest.Driver, text string) {
	d.Until("a notice saying "+text, func() bool {
		return d.Seen(func(m tea.Msg) bool { s, ok := m.(common.StatusMsg); return ok && strings.Contains(s.Text, text) })
	})
}

func countOn(t *testing.T, direct *common.Context, body string) int {
	n := 0
	for _, c := range issueState(t, direct, 3).CommentsList {
		if c.Body == body {
			n++
		}
	}
	return n
}

// TestUnansweredCommentIsLookedFor: a comment whose answer never came is
// looked for in the thread, read again: there, it counts as sent (the
// draft goes); it is never reported "not sent".
func TestUnansweredCommentIsLookedFor(t *testing.T) {
	t.Parallel()
	f := &frozen{}
	v, d, direct := frozenView(t, f)
	d.Key("c")
	d.Type("Arrived late")
	d.Key("ctrl+s")
	notice(d, "the service answered late, the thread read again holds the comment")
	if d.Seen(func(m tea.Msg) bool { s, ok := m.(common.StatusMsg); return ok && strings.Contains(s.Text, "not sent") }) {
		t.Error("a comment the service took was reported not sent")
	}
	if v.editor.Value() != "" {
		t.Errorf("the draft of a comment sent stays: %q", v.editor.Value())
	}
	if n := countOn(t, direct, "Arrived late"); n != 1 || f.posts.Load() != 1 {
		t.Errorf("%d comments on the service, %d posts", n, f.posts.Load())
	}
}

// TestUnknownCommentIsNotSentTwice: with the thread unreadable too, the
// view says the comment may have been sent and keeps the draft; ctrl+s
// then reads the thread first and, finding it, does not post it again.
func TestUnknownCommentIsNotSentTwice(t *testing.T) {
	t.Parallel()
	f := &frozen{}
	v, d, direct := frozenView(t, f)
	f.reads.Store(true)
	d.Key("c")
	d.Type("Maybe there")
	d.Key("ctrl+s")
	notice(d, "the comment may have been sent")
	if d.Seen(func(m tea.Msg) bool { s, ok := m.(common.StatusMsg); return ok && strings.Contains(s.Text, "not sent") }) {
		t.Error("a comment of unknown fate was reported not sent")
	}
	if v.editor.Value() != "Maybe there" {
		t.Fatalf("the draft is gone: %q", v.editor.Value())
	}
	f.reads.Store(false) // the server is back
	d.Key("ctrl+s")
	notice(d, "the thread read again holds the comment")
	if n := countOn(t, direct, "Maybe there"); n != 1 || f.posts.Load() != 1 {
		t.Errorf("%d comments on the service, %d posts: sent twice", n, f.posts.Load())
	}
}

// TestUnansweredCommentNotThere: a send that got no answer and is not in
// the thread read again is not sent, and says so.
func TestUnansweredCommentNotThere(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	ctx := through(t, srv, lossy(t, srv))
	v := NewView(ctx, tuitest.Webapp, &client.Issue{Number: 3, Title: "Add a health check endpoint"})
	d := tuitest.Drive(t, v, 80, 20)
	d.UntilView("GET /healthz")
	d.Key("c")
	d.Type("Lost")
	d.Key("ctrl+s")
	notice(d, "the thread read again does not hold it (the draft is kept: ctrl+s sends it)")
	if v.editor.Value() != "Lost" {
		t.Errorf("draft %q", v.editor.Value())
	}
}

// frozenForm is the new-issue form of alice/webapp for alice through f,
// with a client timeout of a second.
func frozenForm(t *testing.T, f *frozen) (*Form, *tuitest.Driver, *common.Context) {
	srv := tuitest.Server(t)
	form := NewForm(through(t, srv, f.start(t, srv.URL())), tuitest.Webapp)
	return form, tuitest.Drive(t, form, 80, 20), tuitest.Context(t, srv, "alice")
}

// issuesTitled counts the issues of alice/webapp titled title.
func issuesTitled(t *testing.T, direct *common.Context, title string) int {
	c, err := direct.REST()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for is, err := range c.Issues.List(context.Background(), tuitest.Webapp, client.IssueListOptions{State: "all"}) {
		if err != nil {
			t.Fatal(err)
		}
		if is.Title == title {
			n++
		}
	}
	return n
}

// opened waits for the form to give way to the page of the issue opened.
func opened(d *tuitest.Driver, f *Form) *View {
	var view *View
	d.Until("the new issue's page", func() bool {
		return d.Seen(func(m tea.Msg) bool {
			r, ok := m.(common.ReplaceMsg)
			if ok && r.Old == f {
				view, _ = r.New.(*View)
			}
			return view != nil
		})
	})
	return view
}

// TestUnansweredIssueIsLookedFor: an issue whose answer never came is
// looked for in the issue list, read again: there, its page opens and
// the draft goes; it is never reported "not opened".
func TestUnansweredIssueIsLookedFor(t *testing.T) {
	t.Parallel()
	fr := &frozen{}
	f, d, direct := frozenForm(t, fr)
	d.Type("Slow service")
	d.Key("ctrl+s")
	notice(d, "the service answered late, and its issue list holds it")
	if v := opened(d, f); v.issue.Title != "Slow service" {
		t.Errorf("the page is of %+v", v.issue)
	}
	if n := issuesTitled(t, direct, "Slow service"); n != 1 || fr.posts.Load() != 1 {
		t.Errorf("%d issues on the service, %d posts", n, fr.posts.Load())
	}
}

// TestUnknownIssueIsNotOpenedTwice: with the issue list unreadable too,
// the form says the issue may have been opened and keeps the draft;
// ctrl+s then reads the list first and, finding it, shows it instead of
// opening a second one.
func TestUnknownIssueIsNotOpenedTwice(t *testing.T) {
	t.Parallel()
	fr := &frozen{}
	f, d, direct := frozenForm(t, fr)
	fr.reads.Store(true)
	d.Type("Maybe opened")
	d.Key("ctrl+s")
	notice(d, "the issue may have been opened")
	if d.Seen(func(m tea.Msg) bool {
		s, ok := m.(common.StatusMsg)
		return ok && strings.Contains(s.Text, "not opened")
	}) {
		t.Error("an issue of unknown fate was reported not opened")
	}
	if f.title.Value() != "Maybe opened" {
		t.Fatalf("the draft is gone: %q", f.title.Value())
	}
	fr.reads.Store(false) // the server is back
	d.Key("ctrl+s")
	notice(d, "it was not opened again")
	opened(d, f)
	if n := issuesTitled(t, direct, "Maybe opened"); n != 1 || fr.posts.Load() != 1 {
		t.Errorf("%d issues on the service, %d posts: opened twice", n, fr.posts.Load())
	}
}

// TestUnansweredIssueNotThere: a send that got no answer, whose issue is
// not in the list read again, is not opened and says so — an older issue
// of the same title (opened an hour before the send) is not taken for it.
func TestUnansweredIssueNotThere(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	direct := tuitest.Context(t, srv, "alice")
	c, err := direct.REST()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Issues.Create(context.Background(), tuitest.Webapp, client.IssueCreate{Title: "Twice asked"}); err != nil {
		t.Fatal(err)
	}
	ctx := through(t, srv, lossy(t, srv))
	ctx.Now = func() time.Time { return tuitest.Now.Add(time.Hour) }
	f := NewForm(ctx, tuitest.Webapp)
	d := tuitest.Drive(t, f, 80, 20)
	d.Type("Twice asked")
	d.Key("ctrl+s")
	notice(d, "the issue list read again does not hold it (the draft is kept: ctrl+s looks once more, then opens it)")
	if f.title.Value() != "Twice asked" {
		t.Errorf("draft %q", f.title.Value())
	}
}

// TestFindCreatedReadsTheNewest100: the look for an issue a send that got
// no answer may have opened reads the newest 100 issues and no further:
// the issue is found with 99 opened after it, not with 100.
func TestFindCreatedReadsTheNewest100(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	c, err := tuitest.Context(t, srv, "alice").REST()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	open := func(title string) {
		t.Helper()
		if _, err := c.Issues.Create(ctx, tuitest.Webapp, client.IssueCreate{Title: title}); err != nil {
			t.Fatal(err)
		}
	}
	open("Sent once")
	for i := range 100 {
		if i == 99 {
			if is, err := findCreated(ctx, c, tuitest.Webapp, "Sent once", "alice", time.Time{}); err != nil || is == nil {
				t.Fatalf("with 99 issues after it: found %v (%v); want it found", is != nil, err)
			}
		}
		open(fmt.Sprintf("Later %d", i))
	}
	is, err := findCreated(ctx, c, tuitest.Webapp, "Sent once", "alice", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if is != nil {
		t.Errorf("with 100 issues after it, #%d was found: only the newest 100 are read", is.Number)
	}
}
