package profile

import (
	"fmt"

	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/spf13/cobra"
)

func newRemoveCmd(f *cmdutil.Factory) *cobra.Command {
	return &cobra.Command{
		Use:               "remove NAME",
		Aliases:           []string{"rm"},
		Short:             "Remove a profile and the credentials stored in it",
		Example:           `  forge profile remove dev`,
		Args:              cmdutil.ExactArgs(1, "a profile name"),
		ValidArgsFunction: completeNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRemove(f, args[0])
		},
	}
}

func runRemove(f *cmdutil.Factory, name string) error {
	wasCurrent := false
	err := f.UpdateConfig(func(cf *config.File) error {
		if cf.Profile(name) == nil {
			return &cmdutil.UsageError{Err: &config.UnknownProfileError{Name: name, Known: cf.ProfileNames()}}
		}
		name = cf.ProfileKey(name)
		delete(cf.Profiles, name)
		if cf.ProfileKey(cf.CurrentProfile) == name {
			cf.CurrentProfile = ""
			wasCurrent = true
		}
		return nil
	})
	if err != nil {
		return err
	}
	ios := f.IOStreams
	cs := ios.ErrColorScheme()
	fmt.Fprintf(ios.ErrOut, "%s Removed profile %s\n", cs.SuccessIcon(), name)
	if wasCurrent {
		fmt.Fprintf(ios.ErrOut, "%s No current profile now; pick one with `forge profile use NAME`\n", cs.WarningIcon())
	}
	return nil
}
