// Package runid reads the run ID that `forge run logs`, `view`, `watch`,
// `explain`, `cancel` and `rerun` take as their argument.
package runid

import (
	"github.com/forgehq/forge/completions"
	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/spf13/cobra"
)

// Arg makes cmd take one run ID, completed from the repository's runs:
// its RunE reads the ID into *id, then calls run.
func Arg(cmd *cobra.Command, f *cmdutil.Factory, id *int64, run func(cmd *cobra.Command) error) {
	cmd.ValidArgsFunction = completions.Runs(f)
	cmd.Args = cmdutil.ExactArgs(1, "a run ID")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		n, err := Parse(args[0])
		if err != nil {
			return err
		}
		*id = n
		return run(cmd)
	}
}

// Parse reads a run ID. A bad one is a usage error (exit 2) that says
// where IDs are found.
func Parse(arg string) (int64, error) {
	id, err := cmdutil.ParseNumber(arg, "run ID")
	if err != nil {
		return 0, cmdutil.UsageErrorf("%w; `forge run list` shows the IDs", err)
	}
	return id, nil
}
