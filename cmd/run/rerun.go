package run

import (
	"context"
	"fmt"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/spf13/cobra"
)

func newRerunCmd(f *cmdutil.Factory, runF func(context.Context, *actionOptions) error) *cobra.Command {
	runF = cmdcore.Seam(runF, runRerun)
	return newActionCmd(f, &cobra.Command{
		Use:   "rerun ID",
		Short: "Start a workflow run again, at the same commit",
		Long: `Start a new run of a run's workflow at the same commit. Prints the new
run's ID (piped, only the ID, for the next command) when the service says
it; --json prints the service's answer.

` + fmt.Sprintf(beyondSpec, "POST /repos/OWNER/REPO/actions/runs/ID/rerun"),
		Example: `  forge run rerun 12 -R alice/demo
  forge run watch "$(forge run rerun 12)" --exit-status`,
	}, runF)
}

func runRerun(ctx context.Context, opts *actionOptions) error {
	c, repo, err := opts.RepoClient(ctx, opts.repo)
	if err != nil {
		return err
	}
	run, err := c.Actions.RerunRun(ctx, repo, opts.id)
	if err != nil {
		return cmdutil.NotOffered(err, "re-running runs", runThere(ctx, c, repo, opts.id))
	}
	ios := opts.IO
	if opts.exporter.Enabled() {
		return opts.exporter.Write(ios, answer(run))
	}
	if run.ID == 0 {
		// The service did not say which run it started (GitHub sends no body).
		ios.ErrPrintf("%s Run %d runs again: a new run is queued\n", ios.ErrColorScheme().SuccessIcon(), opts.id)
		return nil
	}
	if !ios.IsStdoutTTY() {
		err := ios.Println(run.ID)
		return err
	}
	ios.Printf("%s Started run %d, a re-run of run %d\n", ios.ColorScheme().SuccessIcon(), run.ID, opts.id)
	if run.HTMLURL != "" {
		ios.Println(run.HTMLURL)
	}
	return nil
}
