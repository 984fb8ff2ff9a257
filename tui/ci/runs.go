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

// maxRuns is how many of the latest runs the list shows.
const maxRuns = 100

type runsMsg struct {
	owner, gen int
	runs       []*client.WorkflowRun
	err        error
}

// Runs is a repository's workflow runs, newest first, with live status.
type Runs struct {
	ctx    *common.Context
	id     int
	repo   client.RepoName
	table  *components.Table
	load   common.Load
	runs   []*client.WorkflowRun
	poll   int // generation of the pending poll
	width  int
	height int
}

// NewRuns returns the runs of repo.
func NewRuns(ctx *common.Context, repo client.RepoName) *Runs {
	r := &Runs{ctx: ctx, id: ctx.NewID(), repo: repo}
	r.table = components.NewTable(ctx,
		components.Column{Title: "", Width: 1},
		components.Column{Title: "RUN", Flex: 1, Min: 10},
		components.Column{Title: "BRANCH", Width: 14},
		components.Column{Title: "EVENT", Width: 12},
		components.Column{Title: "ID", Width: 5, Right: true},
		components.Column{Title: "STARTED", Width: 8, Right: true},
	)
	r.table.Empty = "No workflow runs yet: they start when you push."
	return r
}

func (r *Runs) Init() tea.Cmd    { return r.fetch() }
func (r *Runs) Refresh() tea.Cmd { return r.fetch() }

func (r *Runs) fetch() tea.Cmd {
	c, err := r.ctx.REST()
	if err != nil {
		r.load.Fail(err)
		return nil
	}
	gen := r.load.Start()
	ctx, repo, owner := r.ctx.Ctx, r.repo, r.id
	return func() tea.Msg {
		runs, err := client.Collect(c.Actions.ListRuns(ctx, repo, client.RunListOptions{ListOptions: client.ListOptions{PerPage: 50}}), maxRuns)
		return runsMsg{owner: owner, gen: gen, runs: runs, err: err}
	}
}

func (r *Runs) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case runsMsg:
		if msg.owner != r.id || !r.load.Finish(msg.gen, msg.err) {
			return nil
		}
		if msg.err != nil {
			return tea.Batch(common.Error(msg.err), r.schedule())
		}
		r.runs = msg.runs
		r.setRows()
		return r.schedule()
	case pollMsg:
		if msg.owner == r.id && msg.gen == r.poll && !r.load.Busy {
			return r.fetch()
		}
	case common.ThemeMsg:
		r.setRows()
	case tea.KeyPressMsg:
		if !r.table.Capturing() && key.Matches(msg, r.ctx.Keys.Open) {
			if i := r.table.SelectedIndex(); i >= 0 {
				return common.Push(NewJobs(r.ctx, r.repo, r.runs[i]))
			}
			return nil
		}
		_, cmd := r.table.Update(msg)
		return cmd
	case tea.MouseWheelMsg, tea.PasteMsg:
		_, cmd := r.table.Update(msg)
		return cmd
	}
	return nil
}

// schedule asks again in a while if any run is unfinished (or the last
// attempt failed): the list stays live without a key being pressed.
func (r *Runs) schedule() tea.Cmd {
	if !r.live() && r.load.Err == nil {
		return nil
	}
	r.poll++
	gen, owner := r.poll, r.id
	return tea.Tick(pollEvery, func(time.Time) tea.Msg { return pollMsg{owner: owner, gen: gen} })
}

func (r *Runs) live() bool {
	for _, run := range r.runs {
		if !finished(run.Status, run.Conclusion) {
			return true
		}
	}
	return false
}

func (r *Runs) setRows() {
	st := r.ctx.Styles
	now := r.ctx.Now()
	rows := make([]components.Row, len(r.runs))
	for i, run := range r.runs {
		started := run.RunStartedAt
		if started.IsZero() {
			started = run.CreatedAt
		}
		rows[i] = components.Row{
			Key: strconv.FormatInt(run.ID, 10),
			Cells: []string{icon(r.ctx, run.Status, run.Conclusion), runTitle(run), text.OneLine(run.HeadBranch),
				st.Dim.Render(text.OneLine(run.Event)), st.Dim.Render(strconv.FormatInt(run.ID, 10)), st.Dim.Render(text.Since(started.Time, now))},
		}
	}
	r.table.SetRows(rows)
}

func (r *Runs) SetSize(width, height int) {
	r.width, r.height = width, height
	r.table.SetSize(width, height-1)
}

func (r *Runs) View() string {
	if !r.load.Done {
		return r.ctx.Placeholder(&r.load, "workflow runs", r.width, r.height)
	}
	if r.live() {
		// The spinner of running rows turns: redraw them.
		r.setRows()
	}
	st := r.ctx.Styles
	running := 0
	for _, run := range r.runs {
		if !finished(run.Status, run.Conclusion) {
			running++
		}
	}
	head := st.Bold.Render("Workflow runs") + st.Dim.Render(" · "+text.Plural(len(r.runs), "run", "runs"))
	if running > 0 {
		head += st.Dim.Render(fmt.Sprintf(" · %d unfinished, refreshed every %s", running, pollEvery))
	}
	return common.Pad(head+"\n"+r.table.View(), r.width, r.height)
}

func (r *Runs) Title() string   { return "Runs" }
func (r *Runs) Capturing() bool { return r.table.Capturing() }
func (r *Runs) CanGoBack() bool { return r.table.CanGoBack() }
func (r *Runs) Animating() bool { return r.load.Busy || r.live() }

func (r *Runs) ShortHelp() []key.Binding {
	k := r.ctx.Keys
	return []key.Binding{k.Open, k.Filter, k.Refresh}
}

func (r *Runs) FullHelp() [][]key.Binding {
	k := r.ctx.Keys
	return [][]key.Binding{r.table.KeyHelp(), {k.Open, k.Refresh}}
}
