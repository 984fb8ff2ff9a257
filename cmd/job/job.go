// Package job implements `forge job`: one job of a CI workflow run.
package job

import (
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/spf13/cobra"
)

// NewCmd returns `forge job` and its subcommands.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdcore.Group(&cobra.Command{
		Use:     "job <command>",
		Short:   "Work with one job of a CI workflow run",
		Example: `  forge job logs 34 > build.log`,
	})
	cmd.AddCommand(newLogsCmd(f, nil))
	return cmd
}
