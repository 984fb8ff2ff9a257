package ci

import (
	"fmt"
	"strconv"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
)

type jobsMsg struct {
	owner, gen int
	run        *client.WorkflowRun
	jobs       []*client.Job
	err        error
}

// Jobs is a run and its jobs; enter opens a job's log.
type Jobs struct {
	ctx    *common.Context
	id     int
	repo   client.RepoName
	run    *client.WorkflowRun
	table  *components.Table
	load   common.Load
	jobs   []*client.Job
	poll   int
	width  int
	height int
}

// NewJobs returns the page of run.
func NewJobs(ctx *common.Context, repo client.RepoName, run *client.WorkflowRun) *Jobs {
	j := &Jobs{ctx: ctx, id: ctx.NewID(), repo: repo, run: run}
	j.table = components.NewTable(ctx,
		components.Column{Title: "", Width: 1},
		components.Column{Title: "JOB", Flex: 1, Min: 10},
		components.Column{Title: "STATUS", Width: 12},
		components.Column{Title: "STEP", Flex: 1, Min: 8},
		components.Column{Title: "TIME", Width: 7, Right: true},
	)
	j.table.Empty = "This run has no jobs yet."
	return j
}

func (j *Jobs) Init() tea.Cmd    { return j.fetch() }
func (j *Jobs) Refresh() tea.Cmd { return j.fetch() }

func (j *Jobs) fetch() tea.Cmd {
	c, err := j.ctx.REST()
	if err != nil {
		j.load.Fail(err)
		return nil
	}
	gen := j.load.Start()
	ctx, repo, id, owner := j.ctx.Ctx, j.repo, j.run.ID, j.id
	return func() tea.Msg {
		run, err := c.Actions.GetRun(ctx, repo, id)
		if err != nil {
			return jobsMsg{owner: owner, gen: gen, err: err}
		}
		jobs, err := client.Collect(c.Actions.ListJobs(ctx, repo, id, client.ListOptions{PerPage: 100}), 0)
		return jobsMsg{owner: owner, gen: gen, run: run, jobs: jobs, err: err}
	}
}

func (j *Jobs) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case jobsMsg:
		if msg.owner != j.id || !j.load.Finish(msg.gen, msg.err) {
			return nil
		}
		if msg.err != nil {
			return tea.Batch(common.Error(msg.err), j.schedule())
		}
		j.run, j.jobs = msg.run, msg.jobs
		j.setRows()
		return j.schedule()
	case pollMsg:
		if msg.owner == j.id && msg.gen == j.poll && !j.load.Busy {
			return j.fetch()
		}
	case common.ThemeMsg:
		j.setRows()
	case tea.KeyPressMsg:
		if !j.table.Capturing() && key.Matches(msg, j.ctx.Keys.Open) {
			if i := j.table.SelectedIndex(); i >= 0 {
				return common.Push(NewLog(j.ctx, j.repo, j.run, j.jobs[i]))
			}
			return nil
		}
		_, cmd := j.table.Update(msg)
		return cmd
	case tea.MouseWheelMsg, tea.PasteMsg:
		_, cmd := j.table.Update(msg)
		return cmd
	}
	return nil
}

func (j *Jobs) live() bool { return !finished(j.run.Status, j.run.Conclusion) }

func (j *Jobs) schedule() tea.Cmd {
	if !j.live() && j.load.Err == nil {
		return nil
	}
	j.poll++
	gen, owner := j.poll, j.id
	return tea.Tick(pollEvery, func(time.Time) tea.Msg { return pollMsg{owner: owner, gen: gen} })
}

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

func (j *Jobs) setRows() {
	st := j.ctx.Styles
	now := j.ctx.Now()
	rows := make([]components.Row, len(j.jobs))
	for i, job := range j.jobs {
		rows[i] = components.Row{
			Key: strconv.FormatInt(job.ID, 10),
			Cells: []string{icon(j.ctx, job.Status, job.Conclusion), text.OneLine(job.Name), describe(job.Status, job.Conclusion),
				st.Dim.Render(step(job)), st.Dim.Render(duration(job.StartedAt, job.CompletedAt, now))},
		}
	}
	j.table.SetRows(rows)
}

func (j *Jobs) SetSize(width, height int) {
	j.width, j.height = width, height
	j.table.SetSize(width, height-3)
}

func (j *Jobs) View() string {
	if !j.load.Done {
		return j.ctx.Placeholder(&j.load, "the run's jobs", j.width, j.height)
	}
	if j.live() {
		j.setRows()
	}
	st := j.ctx.Styles
	r := j.run
	head := icon(j.ctx, r.Status, r.Conclusion) + " " + st.Bold.Render(runTitle(r)) + st.Dim.Render(fmt.Sprintf(" · run %d", r.ID))
	sha := r.HeadSHA
	if len(sha) > 7 {
		sha = sha[:7]
	}
	meta := st.Dim.Render(fmt.Sprintf("%s · %s on %s (%s) · %s", describe(r.Status, r.Conclusion), text.OneLine(r.Event),
		text.OneLine(r.HeadBranch), sha, text.Since(r.CreatedAt.Time, j.ctx.Now())))
	return common.Pad(head+"\n"+meta+"\n\n"+j.table.View(), j.width, j.height)
}

func (j *Jobs) Title() string   { return "Run " + strconv.FormatInt(j.run.ID, 10) }
func (j *Jobs) Capturing() bool { return j.table.Capturing() }
func (j *Jobs) CanGoBack() bool { return j.table.CanGoBack() }
func (j *Jobs) Animating() bool { return j.load.Busy || j.live() }

func (j *Jobs) ShortHelp() []key.Binding {
	k := j.ctx.Keys
	return []key.Binding{k.Open, k.Back, k.Refresh}
}

func (j *Jobs) FullHelp() [][]key.Binding {
	k := j.ctx.Keys
	return [][]key.Binding{j.table.KeyHelp(), {k.Open, k.Refresh}}
}
