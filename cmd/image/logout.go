package image

import (
	"context"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/config"
	"github.com/spf13/cobra"
)

type logoutOptions struct{ cmdutil.Deps }

func newLogoutCmd(f *cmdutil.Factory, runF func(context.Context, *logoutOptions) error) *cobra.Command {
	opts := &logoutOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runLogout)
	return &cobra.Command{
		Use:   "logout",
		Short: "Remove the stored registry credentials from the profile",
		Example: `  forge image logout
  forge --profile dev image logout`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runF(cmd.Context(), opts) },
	}
}

func runLogout(_ context.Context, opts *logoutOptions) error {
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	var user string
	err = opts.UpdateConfig(func(cf *config.File) error {
		p := cf.Profile(s.Profile)
		if p == nil || (p.RegistryUser == "" && p.RegistryPassword == "") {
			// Not logged in to the registry: exit 4, as auth logout.
			return cmdcore.AuthErrorf("not logged in to the registry: no registry credentials are stored in profile %s", s.Profile)
		}
		user = p.RegistryUser
		p.RegistryUser, p.RegistryPassword = "", ""
		return nil
	})
	if err != nil {
		return err
	}
	ios := opts.IO
	cs := ios.ErrColorScheme()
	ios.ErrPrintf("%s Removed the registry credentials of %s from profile %s\n", cs.SuccessIcon(), user, s.Profile)
	return nil
}
