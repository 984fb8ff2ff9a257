package ci

import (
	"context"
	"fmt"
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
)

// maxRuns is how many of the latest runs the list shows.
const maxRuns = 100

// Runs is a repository's workflow runs, newest first, with live status.
type Runs struct {
	*components.List[*client.WorkflowRun]
	ctx     *common.Context
	repo    client.RepoName
	poll    int // generation of the pending poll
	actions *runActions
}

// NewRuns returns the runs of repo.
func NewRuns(ctx *common.Context, repo client.RepoName) *Runs {
	r := &Runs{ctx: ctx, repo: repo, List: components.NewList[*client.WorkflowRun](ctx, "Runs", "workflow runs",
		components.Column{Title: "", Width: 1},
		components.Column{Title: "RUN", Flex: 1, Min: 10},
		components.Column{Title: "BRANCH", Width: 14},
		components.Column{Title: "EVENT", Width: 12},
		components.Column{Title: "ID", Width: 5, Right: true},
		components.Column{Title: "STARTED", Width: 8, Right: true},
	)}
	r.Table().Empty = "No workflow runs yet: they start when you push."
	r.Fetch = components.REST(ctx, func(cx context.Context, c *client.Client) ([]*client.WorkflowRun, error) {
		return client.Collect(c.Actions.ListRuns(cx, repo, client.RunListOptions{ListOptions: client.ListOptions{PerPage: 50}}), maxRuns)
	})
	r.Row = r.row
	r.Saved = ctx.Filters["ci"]
	r.PageOf = func(run *client.WorkflowRun) string { return run.HTMLURL }
	r.Open = func(run *client.WorkflowRun) tea.Cmd { return common.Push(NewJobs(ctx, repo, run)) }
	r.Head, r.HeadLines = r.head, 1
	r.actions = newRunActions(ctx, r.ID(), repo)
	r.Keys = r.ownKeys()
	// Ask again in a while if any run is unfinished (or the last attempt
	// failed): the list stays live without a key being pressed.
	// The rights are asked once the runs are in: the first frame waits
	// for no more than the runs.
	r.Loaded = func(err error) tea.Cmd {
		return tea.Batch(r.actions.fetchPerms(), pollAgain(r.ID(), &r.poll, pollEvery, r.live() || err != nil))
	}
	return r
}

func (r *Runs) Update(msg tea.Msg) tea.Cmd {
	if msg, ok := msg.(pollMsg); ok {
		// Hidden, the view asks nothing: shown again, it reads again
		// (and polls on from there).
		if msg.owner == r.ID() && msg.gen == r.poll && !r.Loading() && r.ctx.InSight(r) {
			return r.Refresh()
		}
		return nil
	}
	if ok, cmd := r.actions.update(msg, r.Refresh); ok {
		r.Keys = r.ownKeys() // the rights may have come in
		return cmd
	}
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if r.List.Capturing() {
			break
		}
		run, _ := r.Selected()
		if ok, cmd := r.actions.key(msg, run); ok {
			return cmd
		}
		if key.Matches(msg, r.ctx.Keys.Ask) && run != nil {
			return askAbout(r.repo, run, "this run", client.Broke(run.Conclusion))
		}
	}
	return r.List.Update(msg)
}

// ownKeys are the view's keys for the full help: the run's actions only
// for those who may use them.
func (r *Runs) ownKeys() []key.Binding {
	return append([]key.Binding{r.ctx.Keys.Ask}, r.actions.keys()...)
}

// Capturing: a question takes the next key as its answer.
func (r *Runs) Capturing() bool { return r.actions.asking() || r.List.Capturing() }

// CanGoBack: esc answers no to a question.
func (r *Runs) CanGoBack() bool { return r.actions.asking() || r.List.CanGoBack() }

func (r *Runs) live() bool {
	for _, run := range r.Items() {
		if !client.Done(run.Status, run.Conclusion) {
			return true
		}
	}
	return false
}

func (r *Runs) row(run *client.WorkflowRun) components.Row {
	st := r.ctx.Styles
	started := run.RunStartedAt
	if started.IsZero() {
		started = run.CreatedAt
	}
	return components.Row{
		Key: strconv.FormatInt(run.ID, 10),
		Cells: []string{icon(r.ctx, run.Status, run.Conclusion), runTitle(run), text.OneLine(run.HeadBranch),
			st.Dim.Render(text.OneLine(run.Event)), st.Dim.Render(strconv.FormatInt(run.ID, 10)), st.Dim.Render(text.Since(started.Time, r.ctx.Now()))},
		// The status shows as a glyph; "/fail" finds the failed runs.
		Search: searchWords(run.Status, run.Conclusion),
	}
}

func (r *Runs) View() string {
	if r.Done() && r.live() {
		// The spinner of running rows turns: redraw them.
		r.Redraw()
	}
	return r.actions.withQuestion(r.List.View(), r.Width())
}

func (r *Runs) head() string {
	st := r.ctx.Styles
	running := 0
	for _, run := range r.Items() {
		if !client.Done(run.Status, run.Conclusion) {
			running++
		}
	}
	head := st.Bold.Render("Workflow runs") + st.Dim.Render(" · "+text.Plural(len(r.Items()), "run", "runs"))
	if running > 0 {
		head += st.Dim.Render(fmt.Sprintf(" · %d unfinished, refreshed every %s", running, pollEvery))
	}
	return head
}

// ShortHelp leaves out r (the list refreshes itself while runs are
// unfinished), so that the run's actions fit at 80 columns.
func (r *Runs) ShortHelp() []key.Binding {
	k := r.ctx.Keys
	run, _ := r.Selected()
	return append([]key.Binding{k.Open, k.Filter, k.Ask}, r.actions.keysFor(run)...)
}

func (r *Runs) Animating() bool { return r.Loading() || r.live() }
