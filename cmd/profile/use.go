package profile

import (
	"context"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/config"
	"github.com/spf13/cobra"
)

type useOptions struct {
	cmdutil.Deps
	name string
}

func newUseCmd(f *cmdutil.Factory, runF func(context.Context, *useOptions) error) *cobra.Command {
	opts := &useOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runUse)
	return &cobra.Command{
		Use:               "use NAME",
		Short:             "Make a profile the current one",
		Example:           `  forge profile use dev`,
		Args:              cmdcore.ExactArgs(1, "a profile name"),
		ValidArgsFunction: completeNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.name = args[0]
			return runF(cmd.Context(), opts)
		},
	}
}

func runUse(_ context.Context, opts *useOptions) error {
	name := opts.name
	var override string
	err := opts.UpdateConfig(func(cf *config.File) error {
		if cf.Profile(name) == nil {
			return &cmdcore.UsageError{Err: &config.UnknownProfileError{Name: name, Known: cf.ProfileNames()}}
		}
		name = cf.ProfileKey(name)
		cf.CurrentProfile = name
		override = config.ProfileOverride(cf, name, opts.Getenv)
		return nil
	})
	if err != nil {
		return err
	}
	cs := opts.IO.ErrColorScheme()
	opts.IO.ErrPrintf("%s Switched to profile %s\n", cs.SuccessIcon(), cs.Bold(name))
	if override != "" {
		opts.IO.ErrPrintf("%s %s\n", cs.WarningIcon(), override)
	}
	return nil
}
