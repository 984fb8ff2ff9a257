package ci

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
)

// actionMsg is the service's answer to a cancel or a re-run.
type actionMsg struct {
	owner int
	verb  string // "cancel" or "rerun"
	run   *client.WorkflowRun
	got   *client.WorkflowRun // the run as the answer has it (the new run of a re-run)
	err   error
	gone  bool // the run itself is not found (a 404 that is not "no such endpoint")
}

// confirmedMsg is a yes to "Cancel run N?": the cancellation starts.
type confirmedMsg struct {
	owner int
	run   *client.WorkflowRun
}

// runActions are the keys that act on a run, where the service offers
// them (the spec does not; see client.ActionsService.CancelRun): x
// cancels an unfinished run after asking, R runs it again.
type runActions struct {
	ctx     *common.Context
	owner   int
	repo    client.RepoName
	confirm *components.Confirm
	busy    string
	// perms are the caller's rights on the repository, asked once the
	// view's first load is in (not before its first frame): until then,
	// or when the service does not say, the keys stay offered.
	perms common.Perms

	keyCancel, keyRerun key.Binding
}

func newRunActions(ctx *common.Context, owner int, repo client.RepoName) *runActions {
	return &runActions{ctx: ctx, owner: owner, repo: repo, confirm: components.NewConfirm(ctx),
		keyCancel: common.Binding("x", "cancel", "x"),
		keyRerun:  common.Binding("R", "re-run", "R")}
}

// keys are the actions' keys the caller may use, for the help: none
// without write access.
func (a *runActions) keys() []key.Binding {
	if !a.perms.MayWrite() {
		return nil
	}
	return []key.Binding{a.keyCancel, a.keyRerun}
}

// fetchPerms asks, once, what the caller may do in the repository.
func (a *runActions) fetchPerms() tea.Cmd {
	if a.perms.Asked() {
		return nil
	}
	return a.perms.Fetch(a.ctx, a.owner, a.repo)
}

// keysFor are the keys that act on run: cancel only while it runs.
func (a *runActions) keysFor(run *client.WorkflowRun) []key.Binding {
	if run == nil || !a.perms.MayWrite() {
		return nil
	}
	if client.Done(run.Status, run.Conclusion) {
		return []key.Binding{a.keyRerun}
	}
	return a.keys()
}

// asking reports whether a question waits for y or n.
func (a *runActions) asking() bool { return a.confirm.Active() }

// key handles the actions' keys on run (nil: no run selected), and the
// answer to the question; ok reports whether it used the key.
func (a *runActions) key(msg tea.KeyPressMsg, run *client.WorkflowRun) (ok bool, cmd tea.Cmd) {
	if a.confirm.Active() {
		return true, a.confirm.Update(msg)
	}
	cancel, rerun := key.Matches(msg, a.keyCancel), key.Matches(msg, a.keyRerun)
	switch {
	case !cancel && !rerun:
		return false, nil
	case run == nil:
		return true, nil
	case !a.perms.MayWrite():
		return true, common.Status(fmt.Sprintf("Only someone with write access to %s may cancel or re-run its runs.", a.repo))
	case a.busy != "":
		return true, common.Status("Wait: the " + a.busy + " is still being sent.")
	case rerun:
		return true, a.send("rerun", run)
	case client.Done(run.Status, run.Conclusion):
		return true, common.Status(fmt.Sprintf("Run %d has finished (%s): nothing to cancel; R runs it again.", run.ID, describe(run.Status, run.Conclusion)))
	}
	owner := a.owner
	a.confirm.Ask(fmt.Sprintf("Cancel run %d (%s)? Its unfinished jobs stop.", run.ID, runTitle(run)),
		func() tea.Msg { return confirmedMsg{owner: owner, run: run} })
	return true, nil
}

// update takes the actions' messages; ok reports whether msg was one of
// this view's.
func (a *runActions) update(msg tea.Msg, refresh func() tea.Cmd) (ok bool, cmd tea.Cmd) {
	switch msg := msg.(type) {
	case common.Result[*client.Repo]:
		return a.perms.Take(a.owner, msg), nil
	case confirmedMsg:
		if msg.owner == a.owner {
			return true, a.send("cancel", msg.run)
		}
	case actionMsg:
		if msg.owner == a.owner {
			return true, a.done(msg, refresh)
		}
	}
	return false, nil
}

// send returns the command that asks the service to cancel or re-run
// run. A 404 is told apart: the run gone, or the service without the
// endpoint (the run is still there).
func (a *runActions) send(verb string, run *client.WorkflowRun) tea.Cmd {
	c, err := a.ctx.REST()
	if err != nil {
		return common.Error(err)
	}
	a.busy = map[string]string{"cancel": "cancellation", "rerun": "re-run"}[verb]
	ctx, repo, owner := a.ctx.Ctx, a.repo, a.owner
	return func() tea.Msg {
		m := actionMsg{owner: owner, verb: verb, run: run}
		if verb == "cancel" {
			m.got, m.err = c.Actions.CancelRun(ctx, repo, run.ID)
		} else {
			m.got, m.err = c.Actions.RerunRun(ctx, repo, run.ID)
		}
		if client.IsNotFound(m.err) {
			_, err := c.Actions.GetRun(ctx, repo, run.ID)
			m.gone = client.IsNotFound(err)
		}
		return m
	}
}

// done takes the answer: it says what happened, and opens the new run of
// a re-run; refresh reloads the view that asked.
func (a *runActions) done(msg actionMsg, refresh func() tea.Cmd) tea.Cmd {
	a.busy = ""
	id := msg.run.ID
	what := map[string]string{"cancel": "cancelling runs", "rerun": "re-running runs"}[msg.verb]
	switch {
	case msg.err != nil && client.NotOffered(msg.err) && !msg.gone:
		return common.Error(fmt.Errorf("this service does not offer %s (it answered %d)", what, statusOf(msg.err)))
	case msg.err != nil:
		return common.Error(msg.err)
	case msg.verb == "cancel":
		return tea.Batch(common.Status(fmt.Sprintf("Cancelling run %d: its unfinished jobs stop.", id)), refresh())
	case msg.got == nil || msg.got.ID == 0:
		// The service did not say which run it started.
		return tea.Batch(common.Status(fmt.Sprintf("Run %d runs again: a new run is queued.", id)), refresh())
	}
	return tea.Batch(common.Status(fmt.Sprintf("Run %d runs again as run %d.", id, msg.got.ID)),
		common.Push(NewJobs(a.ctx, a.repo, msg.got)))
}

// statusOf is the HTTP status of an API error.
func statusOf(err error) int {
	var e *client.Error
	if errors.As(err, &e) {
		return e.HTTPStatus()
	}
	return 0
}

// question is the question waiting for its answer, as a line.
func (a *runActions) question(width int) string { return a.confirm.View(width) }

// withQuestion puts the question, while one is asked, on the view's last
// line: where every question of the program sits (closing an issue,
// quitting).
func (a *runActions) withQuestion(view string, width int) string {
	if !a.asking() {
		return view
	}
	lines := strings.Split(view, "\n")
	lines[len(lines)-1] = a.question(width)
	return strings.Join(lines, "\n")
}
