package run

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd/internal/runid"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
)

// beyondSpec is the help paragraph shared by the run actions the service's
// specification does not list.
const beyondSpec = `The service's specification does not list this endpoint (%s, as on
GitHub): a server without it answers 404 or 405, and forge says that the
service does not offer it. On a 404 forge reads the run: if the run is
not there either, that is the error shown.`

type actionOptions struct {
	cmdutil.Deps
	exporter *output.Exporter
	repo     string
	id       int64
}

// newActionCmd builds `run cancel` and `run rerun`: one run ID, -R, --json.
func newActionCmd(f *cmdutil.Factory, cmd *cobra.Command, run func(context.Context, *actionOptions) error) *cobra.Command {
	opts := &actionOptions{Deps: f.Deps()}
	runid.Arg(cmd, f, &opts.id, &opts.repo, func(cmd *cobra.Command) error {
		if err := opts.exporter.Validate(); err != nil {
			return err
		}
		return run(cmd.Context(), opts)
	})
	cmdutil.AddRepoFlag(cmd, &opts.repo)
	opts.exporter = output.AddJSONFlags(cmd, runFields...)
	return cmd
}

func newCancelCmd(f *cmdutil.Factory, runF func(context.Context, *actionOptions) error) *cobra.Command {
	runF = cmdcore.Seam(runF, runCancel)
	return newActionCmd(f, &cobra.Command{
		Use:   "cancel ID",
		Short: "Cancel a workflow run that has not completed",
		Long: `Ask the service to stop a queued or running workflow run: what has not
finished completes as cancelled. A run that has already completed
has nothing left to stop: forge says so and exits 0, as when any state
asked for already holds. --json prints the run as the
service answered.

` + fmt.Sprintf(beyondSpec, "POST /repos/OWNER/REPO/actions/runs/ID/cancel"),
		Example: `  forge run cancel 12 -R alice/demo
  forge run cancel 12 && forge run watch 12`,
	}, runF)
}

func runCancel(ctx context.Context, opts *actionOptions) error {
	c, repo, err := opts.RepoClient(ctx, opts.repo)
	if err != nil {
		return err
	}
	run, err := c.Actions.CancelRun(ctx, repo, opts.id)
	ios := opts.IO
	if client.HasStatus(err, http.StatusConflict) {
		// Nothing left to stop: the state asked for holds (exit 0), if the
		// run has indeed ended; else the 409 was about something else.
		if ended, gerr := c.Actions.GetRun(ctx, repo, opts.id); gerr == nil && client.Done(ended.Status, ended.Conclusion) {
			if opts.exporter.Enabled() {
				return opts.exporter.Write(ios, answer(ended))
			}
			ios.ErrPrintf("Run %d has already completed (%s): nothing to cancel\n", opts.id, text.OneLine(ended.State().Word))
			return nil
		}
	}
	if err != nil {
		return cmdutil.NotOffered(err, "cancelling runs", runThere(ctx, c, repo, opts.id))
	}
	if opts.exporter.Enabled() {
		return opts.exporter.Write(ios, answer(run))
	}
	ios.ErrPrintf("%s Cancelling run %d\n", ios.ErrColorScheme().SuccessIcon(), opts.id)
	return nil
}

// runThere tells NotOffered whether the run is there: a 404 for it is the
// error to show.
func runThere(ctx context.Context, c *client.Client, repo client.RepoName, id int64) func() (bool, error) {
	return func() (bool, error) {
		if _, err := c.Actions.GetRun(ctx, repo, id); err != nil {
			return false, err
		}
		return true, nil
	}
}

// answer is what the service sent for --json: {} when it sent no body.
func answer(run *client.WorkflowRun) json.RawMessage {
	if raw := run.RawJSON(); len(raw) > 0 {
		return raw
	}
	return json.RawMessage("{}")
}
