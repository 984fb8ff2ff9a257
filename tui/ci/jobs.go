package ci

import (
	"cmp"
	"fmt"
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
)

// Jobs is a run and its jobs; enter opens a job's log.
type Jobs struct {
	*components.List[*client.Job]
	ctx  *common.Context
	repo client.RepoName
	run  *client.WorkflowRun
	// fetched is where the latest load's work puts the run it read with
	// the jobs; taken on the UI goroutine once the list takes the answer
	// (an answer is taken only for the latest load, and the work wrote it
	// before sending the answer).
	fetched *runHolder
	poll    int
	// placed: the cursor went to the first failed job once; later polls
	// leave it where the user put it.
	placed  bool
	actions *runActions
}

type runHolder struct{ run *client.WorkflowRun }

// NewJobs returns the page of run.
func NewJobs(ctx *common.Context, repo client.RepoName, run *client.WorkflowRun) *Jobs {
	j := &Jobs{ctx: ctx, repo: repo, run: run, List: components.NewList[*client.Job](ctx, "Run "+strconv.FormatInt(run.ID, 10), "the run's jobs",
		components.Column{Title: "", Width: 1},
		components.Column{Title: "JOB", Flex: 1, Min: 10},
		components.Column{Title: "STATUS", Width: 12},
		components.Column{Title: "STEP", Flex: 1, Min: 8},
		components.Column{Title: "TIME", Width: 7, Right: true},
	)}
	j.Table().Empty = "This run has no jobs yet."
	j.Fetch, j.Row = j.fetch, j.row
	j.PageOf = func(job *client.Job) string { return cmp.Or(job.HTMLURL, j.run.HTMLURL) }
	j.Open = func(job *client.Job) tea.Cmd { return common.Push(NewLog(ctx, repo, j.run, job)) }
	j.Head, j.HeadLines = j.head, 3
	j.actions = newRunActions(ctx, j.ID(), repo)
	j.Keys = j.ownKeys()
	j.Loaded = func(err error) tea.Cmd {
		if err == nil {
			j.run = j.fetched.run
			j.placeCursor()
		}
		// The rights are asked once the run is in, not before the
		// first frame.
		return tea.Batch(j.actions.fetchPerms(), pollAgain(j.ID(), &j.poll, pollEvery, j.live() || err != nil))
	}
	return j
}

// fetch reads the run (its status) and its jobs.
func (j *Jobs) fetch() (components.Work[*client.Job], error) {
	c, err := j.ctx.REST()
	if err != nil {
		return nil, err
	}
	ctx, repo, id := j.ctx.Ctx, j.repo, j.run.ID
	got := &runHolder{}
	j.fetched = got
	return func() ([]*client.Job, error) {
		run, err := c.Actions.GetRun(ctx, repo, id)
		if err != nil {
			return nil, err
		}
		got.run = run
		return client.Collect(c.Actions.ListJobs(ctx, repo, id, client.ListOptions{PerPage: 100}), 0)
	}, nil
}

func (j *Jobs) Update(msg tea.Msg) tea.Cmd {
	if msg, ok := msg.(pollMsg); ok {
		// Hidden, the view asks nothing: shown again, it reads again
		// (and polls on from there).
		if msg.owner == j.ID() && msg.gen == j.poll && !j.Loading() && j.ctx.InSight(j) {
			return j.Refresh()
		}
		return nil
	}
	if ok, cmd := j.actions.update(msg, j.Refresh); ok {
		j.Keys = j.ownKeys() // the rights may have come in
		return cmd
	}
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if j.List.Capturing() {
			break
		}
		if ok, cmd := j.actions.key(msg, j.run); ok {
			return cmd
		}
		if key.Matches(msg, j.ctx.Keys.Ask) {
			return askAbout(j.repo, j.run, "this run", client.Broke(j.run.Conclusion))
		}
	}
	return j.List.Update(msg)
}

// ownKeys are the view's keys for the full help: the run's actions only
// for those who may use them.
func (j *Jobs) ownKeys() []key.Binding {
	return append([]key.Binding{j.ctx.Keys.Ask}, j.actions.keys()...)
}

// Capturing: a question takes the next key as its answer.
func (j *Jobs) Capturing() bool { return j.actions.asking() || j.List.Capturing() }

// CanGoBack: esc answers no to a question.
func (j *Jobs) CanGoBack() bool { return j.actions.asking() || j.List.CanGoBack() }

// placeCursor puts the cursor on the first failed job, once: in a failed
// run that is the job whose log the user came for.
func (j *Jobs) placeCursor() {
	if j.placed || len(j.Items()) == 0 {
		return
	}
	j.placed = true
	j.SelectFirst(func(job *client.Job) bool { return client.Broke(job.Conclusion) })
}

func (j *Jobs) live() bool { return !client.Done(j.run.Status, j.run.Conclusion) }

// step names the job's current step (or the failed one).
func step(job *client.Job) string {
	for _, s := range job.Steps {
		if s.Status == "in_progress" || s.Conclusion == "failure" {
			return fmt.Sprintf("%d/%d %s", s.Number, len(job.Steps), text.OneLine(s.Name))
		}
	}
	if len(job.Steps) > 0 {
		return text.Plural(len(job.Steps), "step", "steps")
	}
	return ""
}

func (j *Jobs) row(job *client.Job) components.Row {
	st := j.ctx.Styles
	return components.Row{
		Key: strconv.FormatInt(job.ID, 10),
		Cells: []string{icon(j.ctx, job.Status, job.Conclusion), text.OneLine(job.Name), describe(job.Status, job.Conclusion),
			st.Dim.Render(step(job)), st.Dim.Render(duration(job.StartedAt, job.CompletedAt, j.ctx.Now()))},
	}
}

func (j *Jobs) View() string {
	if j.Done() && j.live() {
		j.Redraw()
	}
	return j.actions.withQuestion(j.List.View(), j.Width())
}

// head is the run's title and what it ran on, and a blank line.
func (j *Jobs) head() string {
	st := j.ctx.Styles
	r := j.run
	head := icon(j.ctx, r.Status, r.Conclusion) + " " + st.Bold.Render(runTitle(r)) + st.Dim.Render(fmt.Sprintf(" · run %d", r.ID))
	sha := text.OneLine(text.ShortSHA(r.HeadSHA))
	meta := st.Dim.Render(fmt.Sprintf("%s · %s on %s (%s) · %s", describe(r.Status, r.Conclusion), text.OneLine(r.Event),
		text.OneLine(r.HeadBranch), sha, text.Since(r.CreatedAt.Time, j.ctx.Now())))
	return head + "\n" + meta + "\n"
}

func (j *Jobs) Animating() bool { return j.Loading() || j.live() }

func (j *Jobs) ShortHelp() []key.Binding {
	k := j.ctx.Keys
	return append(append([]key.Binding{k.Open, k.Ask}, j.actions.keysFor(j.run)...), k.Back)
}
