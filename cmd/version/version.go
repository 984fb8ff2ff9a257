// Package version implements `forge version`.
package version

import (
	"context"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/internal/build"
	"github.com/spf13/cobra"
)

// NewCmd returns `forge version`.
func NewCmd(f *cmdutil.Factory) *cobra.Command { return newVersionCmd(f, nil) }

type versionOptions struct{ cmdutil.Deps }

func newVersionCmd(f *cmdutil.Factory, runF func(context.Context, *versionOptions) error) *cobra.Command {
	opts := &versionOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runVersion)
	return &cobra.Command{
		Use:   "version",
		Short: "Show forge's version, commit and build date",
		Example: `  forge version
  forge --version`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), opts)
		},
	}
}

func runVersion(_ context.Context, opts *versionOptions) error {
	err := opts.IO.Println(build.String())
	return err
}
