// Package runid reads the run ID that `forge run logs`, `view`, `watch`,
// `explain`, `cancel` and `rerun` take as their argument.
package runid

import (
	"context"
	"fmt"
	"iter"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd/internal/pick"
	"github.com/forgehq/forge/completions"
	"github.com/spf13/cobra"
)

// Arg makes cmd take one run ID, or the run's web address (which names
// the repository too, into *repo), completed from the repository's runs:
// its RunE reads the ID into *id, then calls run.
func Arg(cmd *cobra.Command, f *cmdutil.Factory, id *int64, repo *string, run func(cmd *cobra.Command) error) {
	cmd.ValidArgsFunction = completions.Runs(f)
	cmd.Args = cmdcore.ExactArgs(1, "a run ID")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		n, err := Parse(args[0], repo)
		if err != nil {
			return err
		}
		*id = n
		return run(cmd)
	}
}

// ArgOrPick is Arg where the ID may be left out on a terminal: forge
// offers the repository's recent runs to choose from. Without a terminal
// a missing ID is the usage error it always was.
func ArgOrPick(cmd *cobra.Command, f *cmdutil.Factory, id *int64, repo *string, run func(cmd *cobra.Command) error) {
	Arg(cmd, f, id, repo, run)
	one := cmd.RunE
	cmd.Args = cmdcore.MaximumArgs(1, "a run ID")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) == 1 {
			return one(cmd, args)
		}
		noWay := cmdcore.UsageErrorf("missing a run ID; see `%s --help`", cmd.CommandPath())
		if !f.IOStreams.CanPrompt() {
			return noWay
		}
		n, err := choose(cmd.Context(), f, *repo, noWay)
		if err != nil {
			return err
		}
		*id = n
		return run(cmd)
	}
}

// choose lists the 10 most recent runs and asks for one.
func choose(ctx context.Context, f *cmdutil.Factory, repo string, noWay error) (int64, error) {
	return pick.Recent(ctx, f, repo, noWay, "runs",
		func(c *client.Client, name client.RepoName) iter.Seq2[*client.WorkflowRun, error] {
			return c.Actions.ListRuns(ctx, name, client.RunListOptions{ListOptions: client.ListOptions{PerPage: 10}})
		},
		func(r *client.WorkflowRun) string {
			title := r.DisplayTitle
			if title == "" {
				title = r.Name
			}
			st := r.State() // marked and worded as forge run list shows it
			return fmt.Sprintf("%d  %s %-11s %s (%s)", r.ID, st.Mark, st.Word, title, r.HeadBranch)
		},
		func(r *client.WorkflowRun) int64 { return r.ID })
}

// Parse reads a run ID, or a run's web address (its repository into
// *repo). A bad one is a usage error (exit 2) that says where IDs are
// found.
func Parse(arg string, repo *string) (int64, error) {
	id, err := cmdutil.ParseRef(arg, "run ID", "actions/runs", repo)
	if err != nil {
		return 0, cmdcore.UsageErrorf("%w; `forge run list` shows the IDs", err)
	}
	return id, nil
}
