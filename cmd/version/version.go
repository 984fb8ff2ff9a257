// Package version implements `forge version`.
package version

import (
	"fmt"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/internal/build"
	"github.com/spf13/cobra"
)

// NewCmd returns `forge version`.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Show forge's version, commit and build date",
		Example: `  forge version
  forge --version`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := fmt.Fprintln(f.IOStreams.Out, build.String())
			return err
		},
	}
}
