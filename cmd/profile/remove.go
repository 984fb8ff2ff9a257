package profile

import (
	"context"
	"fmt"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/config"
	"github.com/spf13/cobra"
)

type removeOptions struct {
	cmdutil.Deps
	name string
	yes  bool
}

func newRemoveCmd(f *cmdutil.Factory, runF func(context.Context, *removeOptions) error) *cobra.Command {
	opts := &removeOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runRemove)
	cmd := &cobra.Command{
		Use:     "remove NAME",
		Aliases: []string{"rm"},
		Short:   "Remove a profile and the credentials stored in it",
		Long: `Remove a profile and every secret it stores (token, registry password,
agent key), from the config file and the OS keyring. A profile holding
credentials is removed only after a yes on a terminal, or with --yes.
The token is not revoked on the service: ` + "`forge auth logout`" + ` does that.`,
		Example: `  forge profile remove dev
  forge profile remove dev --yes`,
		Args:              cmdcore.ExactArgs(1, "a profile name"),
		ValidArgsFunction: completeNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.name = args[0]
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVarP(&opts.yes, "yes", "y", false, "Remove a profile holding credentials without asking")
	return cmd
}

func runRemove(ctx context.Context, opts *removeOptions) error {
	d, name := opts.Deps, opts.name
	ios := d.IO
	cf, err := d.ConfigFile()
	if err != nil {
		return err
	}
	if p := cf.Profile(name); p != nil && p.HasSecrets() && !opts.yes {
		if !ios.CanPrompt() {
			return cmdcore.UsageErrorf("profile %s holds credentials (%s): pass --yes to remove it", name, p.StoredSecrets())
		}
		ok, err := d.Prompter.Confirm(ctx, fmt.Sprintf("Remove profile %s and its %s?", name, p.StoredSecrets()), false)
		if err != nil {
			return err
		}
		if !ok {
			ios.ErrPrintln("Nothing removed.")
			return cmdcore.ErrSilent
		}
		opts.yes = true
	}
	wasCurrent := false
	err = d.UpdateConfig(func(cf *config.File) error {
		p := cf.Profile(name)
		if p == nil {
			return &cmdcore.UsageError{Err: &config.UnknownProfileError{Name: name, Known: cf.ProfileNames()}}
		}
		name = cf.ProfileKey(name)

		if p.HasSecrets() && !opts.yes {
			// Credentials stored since the check above.
			return cmdcore.UsageErrorf("profile %s holds credentials (%s): pass --yes to remove it", name, p.StoredSecrets())
		}
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
	cs := ios.ErrColorScheme()
	ios.ErrPrintf("%s Removed profile %s\n", cs.SuccessIcon(), name)
	if wasCurrent {
		ios.ErrPrintf("%s No current profile now; pick one with `forge profile use NAME`\n", cs.WarningIcon())
	}
	return nil
}
