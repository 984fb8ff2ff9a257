package ci

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/ci"
	"github.com/forgehq/forge/refserver/refservertest"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/tuitest"
)

func TestRunsShowsStatus(t *testing.T) {
	t.Parallel()
	ctx := tuitest.Context(t, tuitest.Server(t), "alice")
	r := NewRuns(ctx, tuitest.Webapp)
	d := tuitest.Drive(t, r, 80, 20)
	v := d.UntilView("Workflow runs", "CI on slog", "CI on router", "3 unfinished")
	for _, want := range []string{"✓ CI on main", "✗ CI on fix-empty-body", "⊘ CI on router", "• CI on healthz", tuitest.Spinner + " CI on slog"} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q:\n%s", want, v)
		}
	}
	if !r.Animating() {
		t.Error("runs are in progress, yet the list does not animate")
	}
	// A run in progress keeps the list asking: a poll is pending.
	if r.poll == 0 {
		t.Error("no poll scheduled while runs are unfinished")
	}
	d.Key("enter")
	d.Until("the run's page", func() bool {
		return d.Seen(func(m tea.Msg) bool { p, ok := m.(common.PushMsg); return ok && strings.HasPrefix(p.C.Title(), "Run ") })
	})
}

func TestJobsAndLog(t *testing.T) {
	t.Parallel()
	ctx := tuitest.Context(t, tuitest.Server(t), "alice")
	c, _ := ctx.REST()
	runs, err := client.Collect(c.Actions.ListRuns(context.Background(), tuitest.Webapp, client.RunListOptions{}), 0)
	if err != nil {
		t.Fatal(err)
	}
	var failed *client.WorkflowRun
	for _, r := range runs {
		if r.Conclusion == "failure" {
			failed = r
		}
	}
	j := NewJobs(ctx, tuitest.Webapp, failed)
	d := tuitest.Drive(t, j, 80, 20)
	v := d.UntilView("CI on fix-empty-body", "failure · pull_request on fix-empty-body", "build", "test")
	if !strings.Contains(v, "✓ build") || !strings.Contains(v, "✗ test") {
		t.Fatalf("job states:\n%s", v)
	}
	d.Key("j", "enter")
	var log *Log
	d.Until("the log page", func() bool {
		return d.Seen(func(m tea.Msg) bool {
			p, ok := m.(common.PushMsg)
			if ok {
				log, _ = p.C.(*Log)
			}
			return log != nil
		})
	})
	ld := tuitest.Drive(t, log, 80, 10)
	v = ld.UntilView("test · failure · started 6d ago · lines")
	if log.pager.Follow && !log.pager.AtBottom() {
		t.Error("following, yet not at the bottom")
	}
	// Numbered lines, their times of day in 9 columns rather than 25;
	// tabs expanded to the next multiple of 8.
	for _, want := range []string{"1 06:00:00 ==> Set up job", "9 11:00:00 ##[error]Process completed with exit code 1.",
		"ok     example.com/app 0.012s"} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q:\n%s", want, v)
		}
	}
}

// TestLogFollows watches a job run: the log grows while it runs, each poll
// asks only for the new bytes, and in the end the pager holds exactly the
// server's log, following to its last line.
func TestLogFollows(t *testing.T) {
	t.Parallel()
	srv := refservertest.Start(t)
	if _, err := srv.CreateUser("alice", "alice-password-1", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.CreateRepo("alice", "app", refserver.RepoOptions{AutoInit: true}); err != nil {
		t.Fatal(err)
	}
	lines := make([]string, 40)
	for i := range lines {
		lines[i] = "step output line"
	}
	// Held halfway through its step until the view shows part of the
	// log, then let go: the log grows while the view follows it however
	// slow the machine, where a run moving with time alone may end before
	// the first poll.
	run, err := srv.CreateRun("alice/app", refserver.RunSeed{Tick: 40 * time.Millisecond, Status: ci.InProgress,
		Jobs: []ci.JobPlan{{Name: "build", Steps: []ci.StepPlan{{Name: "Build", Lines: lines}}}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := tuitest.Context(t, srv, "alice")
	c, _ := ctx.REST()
	repo := client.RepoName{Owner: "alice", Name: "app"}
	bg := context.Background()
	wr, err := c.Actions.GetRun(bg, repo, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := client.Collect(c.Actions.ListJobs(bg, repo, run.ID, client.ListOptions{}), 0)
	if err != nil {
		t.Fatal(err)
	}
	log := NewLog(ctx, repo, wr, jobs[0])
	d := tuitest.Drive(t, log, 80, 10)
	d.UntilView("following")
	d.Until("part of the log", func() bool { return log.pager.Len() > 0 })
	if _, err := srv.Store().SetRunClock(run.ID, func(c *ci.Clock) { c.Hold = nil }); err != nil {
		t.Fatal(err)
	}
	grew := false
	first := -1
	d.Until("the job to finish", func() bool {
		n := log.pager.Len()
		if first < 0 && n > 0 {
			first = n
		}
		if n > first && first > 0 {
			grew = true
		}
		return client.Done(log.job.Status, log.job.Conclusion) && !log.load.Busy && log.load.Done
	})
	if !grew {
		t.Error("the log never grew while the job ran")
	}
	body, err := c.Actions.JobLogs(bg, repo, jobs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	full, _ := io.ReadAll(body)
	body.Close()
	want := strings.Split(strings.TrimSuffix(string(full), "\n"), "\n")
	for i, l := range want {
		want[i] = shortTime(l, time.UTC)
	}
	got := log.pager.Lines()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the pager holds %d lines, the server's log %d:\n%s\n---\n%s", len(got), len(want), strings.Join(got, "\n"), full)
	}
	if log.seen != int64(len(full)) {
		t.Errorf("read %d bytes of a %d-byte log", log.seen, len(full))
	}
	if !log.pager.AtBottom() {
		t.Error("not following to the last line")
	}
	// Scrolling up stops following; G follows again.
	d.Key("k")
	if log.pager.Follow {
		t.Error("still following after scrolling up")
	}
	d.Key("G")
	if !log.pager.Follow || !log.pager.AtBottom() {
		t.Error("G does not follow")
	}
}

// TestShortTime: a log line's timestamp becomes the time of day where
// the user is; other lines stay as they are.
func TestShortTime(t *testing.T) {
	paris := time.FixedZone("CET", 3600)
	for _, c := range []struct{ in, want string }{
		{"2026-11-14T06:00:00.000Z ==> Set up job", "07:00:00 ==> Set up job"},
		{"2026-11-14T06:00:00Z ok", "07:00:00 ok"},
		{"2026-11-14T06:00:00.123456789+02:00 x", "05:00:00 x"},
		{"2026-11-14 is not a timestamp", "2026-11-14 is not a timestamp"},
		{"2026-11-14T99:00:00.000Z bad hour", "2026-11-14T99:00:00.000Z bad hour"},
		{"plain line", "plain line"},
		{"", ""},
	} {
		if got := shortTime(c.in, paris); got != c.want {
			t.Errorf("shortTime(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestDuration(t *testing.T) {
	at := func(s string) client.Time {
		tm, _ := time.Parse(time.RFC3339, s)
		return client.Time{Time: tm}
	}
	start := at("2026-01-01T10:00:00Z")
	for _, c := range []struct {
		end  string
		want string
	}{{"2026-01-01T10:00:42Z", "42s"}, {"2026-01-01T10:03:05Z", "3m 05s"}, {"2026-01-01T12:01:00Z", "2h 01m"}} {
		if got := duration(start, at(c.end), time.Time{}); got != c.want {
			t.Errorf("%s: %s, want %s", c.end, got, c.want)
		}
	}
	if got := duration(client.Time{}, client.Time{}, time.Now()); got != "" {
		t.Errorf("no start: %q", got)
	}
}

// failedRun is the demo's failed run of alice/webapp.
func failedRun(t *testing.T, ctx *common.Context) *client.WorkflowRun {
	t.Helper()
	c, _ := ctx.REST()
	runs, err := client.Collect(c.Actions.ListRuns(context.Background(), tuitest.Webapp, client.RunListOptions{}), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if r.Conclusion == "failure" {
			return r
		}
	}
	t.Fatal("the demo has no failed run")
	return nil
}

// TestRunsFilterByStatus: the status shows as a glyph, yet the filter
// finds runs by it in words.
func TestRunsFilterByStatus(t *testing.T) {
	t.Parallel()
	ctx := tuitest.Context(t, tuitest.Server(t), "alice")
	r := NewRuns(ctx, tuitest.Webapp)
	d := tuitest.Drive(t, r, 80, 20)
	d.UntilView("CI on slog")
	d.Key("/")
	d.Type("fail")
	v := d.UntilView("/fail", "1 match")
	if !strings.Contains(v, "✗ CI on fix-empty-body") || strings.Contains(v, "CI on main") {
		t.Errorf("/fail shows:\n%s", v)
	}
	d.Key("esc")
	d.Key("/")
	d.Type("in progress")
	v = d.UntilView("1 match")
	if !strings.Contains(v, "CI on slog") {
		t.Errorf("/in progress shows:\n%s", v)
	}
}

// TestJobsCursorOnFailedJob: opening a failed run puts the cursor on its
// first failed job, whose log enter opens.
func TestJobsCursorOnFailedJob(t *testing.T) {
	t.Parallel()
	ctx := tuitest.Context(t, tuitest.Server(t), "alice")
	j := NewJobs(ctx, tuitest.Webapp, failedRun(t, ctx))
	d := tuitest.Drive(t, j, 80, 20)
	d.UntilView("✗ test")
	if job, ok := j.Selected(); !ok || job.Name != "test" {
		t.Fatalf("the cursor is not on the failed job test (on a job: %v, %+v)", ok, job.Name)
	}
	if v := d.View(); !strings.Contains(v, "▌ ✗ test") {
		t.Errorf("the cursor is not drawn on test:\n%s", v)
	}
}

// openLog opens the log of the failed run's job test, at 80×14.
func openLog(t *testing.T) (*Log, *tuitest.Driver) {
	t.Helper()
	ctx := tuitest.Context(t, tuitest.Server(t), "alice")
	run := failedRun(t, ctx)
	c, _ := ctx.REST()
	jobs, err := client.Collect(c.Actions.ListJobs(context.Background(), tuitest.Webapp, run.ID, client.ListOptions{}), 0)
	if err != nil {
		t.Fatal(err)
	}
	log := NewLog(ctx, tuitest.Webapp, run, jobs[len(jobs)-1])
	d := tuitest.Drive(t, log, 80, 14)
	d.UntilView("test · failure")
	return log, d
}

// TestLogSearch: / finds text in the log as it is typed, n and N go from
// match to match (wrapping), the current match is in reverse video, a
// query found nowhere says so, esc clears the search.
func TestLogSearch(t *testing.T) {
	t.Parallel()
	log, d := openLog(t)
	d.Key("/")
	if !log.Capturing() {
		t.Fatal("the query does not take the keys")
	}
	d.Type("==>")
	d.UntilView("/==>", "match 1 of")
	d.Key("enter")
	d.UntilView("match 1 of 3", "n/N next/previous")
	if log.Capturing() {
		t.Error("enter did not keep the query")
	}
	if !strings.Contains(log.View(), log.ctx.Styles.Cursor.Render("==>")) {
		t.Errorf("the current match is not highlighted:\n%q", log.View())
	}
	d.Key("n")
	d.UntilView("match 2 of 3")
	d.Key("n", "n")
	d.UntilView("match 1 of 3")
	d.Key("N")
	d.UntilView("match 3 of 3")
	d.Key("esc")
	if v := d.View(); strings.Contains(v, "match") || log.CanGoBack() {
		t.Errorf("esc did not clear the search:\n%s", v)
	}
	d.Key("/")
	d.Type("no such text")
	d.Key("enter")
	d.UntilView("/no such text no match")
}

// A run's head SHA is server text: its first seven bytes are drawn made
// safe, as every other string of the header (an escape sequence there
// reached the terminal).
func TestRunHeadSHAIsMadeSafe(t *testing.T) {
	ctx := tuitest.Context(t, tuitest.Server(t), "alice")
	run := &client.WorkflowRun{ID: 7, Name: "CI", Status: "completed", Conclusion: "success", HeadBranch: "main", Event: "push",
		HeadSHA: "\x1b]0;x\a" + strings.Repeat("a", 40)}
	head := NewJobs(ctx, client.RepoName{Owner: "alice", Name: "webapp"}, run).head()
	if strings.ContainsAny(head, "\a") || strings.Contains(head, "\x1b]") {
		t.Errorf("the run's head draws the server's escape: %q", head)
	}
	if !strings.Contains(head, "^[]0;x") {
		t.Errorf("the SHA's bytes are not shown made visible: %q", head)
	}
}

// TestLogSearchFromWhereTheViewIs: once the page moved (g, G), n and N
// look from the top line in view, as less does: n after g goes to the
// first match, N after G to the last.
func TestLogSearchFromWhereTheViewIs(t *testing.T) {
	t.Parallel()
	ctx := tuitest.Context(t, tuitest.Server(t), "alice")
	l := NewLog(ctx, tuitest.Webapp, &client.WorkflowRun{ID: 1}, &client.Job{ID: 1, Name: "build", Status: "completed", Conclusion: "success"})
	var log strings.Builder
	for i := range 200 {
		word := "step"
		if i%20 == 10 {
			word = "needle"
		}
		fmt.Fprintf(&log, "line %d %s\n", i+1, word)
	}
	l.load.Done = true
	l.add(0, []byte(log.String()))
	d := tuitest.Drive(t, l, 80, 14)
	d.Key("g", "/")
	d.Type("needle")
	d.Key("enter")
	d.UntilView("match 1 of 10")
	d.Key("n", "n", "n")
	d.UntilView("match 4 of 10")
	d.Key("g", "n")
	d.UntilView("match 1 of 10", "line 11 needle")
	d.Key("n")
	d.UntilView("match 2 of 10")
	d.Key("G", "N")
	d.UntilView("match 10 of 10", "line 191 needle")
	d.Key("pgup", "pgup", "n")
	if v := d.View(); !strings.Contains(v, "line 171 needle") || strings.Contains(v, "match 1 of 10") {
		t.Errorf("n after two pages up:\n%s", v)
	}
}
