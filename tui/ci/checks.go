package ci

import (
	"slices"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
)

// NewChecks returns the runs of one commit — a pull request's checks —
// with everything the runs list offers (jobs, logs, cancel, re-run).
func NewChecks(ctx *common.Context, repo client.RepoName, sha string) *Runs {
	r := NewRuns(ctx, repo)
	r.SetTitle("Checks")
	r.Table().Empty = "No workflow runs for the head commit " + text.OneLine(text.ShortSHA(sha)) + "."
	all := r.Fetch
	r.Fetch = func() (components.Work[*client.WorkflowRun], error) {
		work, err := all()
		if err != nil {
			return nil, err
		}
		return func() ([]*client.WorkflowRun, error) {
			runs, err := work()
			return slices.DeleteFunc(runs, func(run *client.WorkflowRun) bool { return run.HeadSHA != sha }), err
		}, nil
	}
	return r
}
