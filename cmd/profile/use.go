package profile

import (
	"fmt"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/config"
	"github.com/spf13/cobra"
)

func newUseCmd(f *cmdutil.Factory) *cobra.Command {
	return &cobra.Command{
		Use:               "use NAME",
		Short:             "Make a profile the current one",
		Example:           `  forge profile use dev`,
		Args:              cmdutil.ExactArgs(1, "a profile name"),
		ValidArgsFunction: completeNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runUse(f, args[0])
		},
	}
}

func runUse(f *cmdutil.Factory, name string) error {
	var override string
	err := f.UpdateConfig(func(cf *config.File) error {
		if cf.Profile(name) == nil {
			return &cmdutil.UsageError{Err: &config.UnknownProfileError{Name: name, Known: cf.ProfileNames()}}
		}
		name = cf.ProfileKey(name)
		cf.CurrentProfile = name
		override = config.ProfileOverride(cf, name, f.Getenv)
		return nil
	})
	if err != nil {
		return err
	}
	cs := f.IOStreams.ErrColorScheme()
	fmt.Fprintf(f.IOStreams.ErrOut, "%s Switched to profile %s\n", cs.SuccessIcon(), cs.Bold(name))
	if override != "" {
		fmt.Fprintf(f.IOStreams.ErrOut, "%s %s\n", cs.WarningIcon(), override)
	}
	return nil
}
