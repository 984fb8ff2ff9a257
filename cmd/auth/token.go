package auth

import (
	"context"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/spf13/cobra"
)

type tokenOptions struct{ cmdutil.Deps }

func newTokenCmd(f *cmdutil.Factory, runF func(context.Context, *tokenOptions) error) *cobra.Command {
	opts := &tokenOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runToken)
	return &cobra.Command{
		Use:   "token",
		Short: "Print the token of the current profile",
		Long: `Print the REST API token forge uses (FORGE_TOKEN, else the profile's), for
scripts and other tools. This is the one command that shows the token
unmasked; do not paste its output anywhere public.`,
		Example: `  curl -H "Authorization: token $(forge auth token)" https://forge.example.com/api/v2/me`,
		Args:    cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), opts)
		},
	}
}

func runToken(_ context.Context, opts *tokenOptions) error {
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	if s.Token == "" {
		if err := keyringError(opts.Deps, s.Profile); err != nil {
			return cmdcore.AuthErrorf("the token of profile %q is in the OS keyring, which did not give it (%v): unlock the keyring, or %s", s.Profile, err, cmdutil.LoginHint(s))
		}
		return cmdcore.AuthErrorf("not logged in (profile %q has no token): %s", s.Profile, cmdutil.LoginHint(s))
	}
	err = opts.IO.Println(s.Token)
	return err
}

// keyringError is why the keyring did not give the profile's token, or nil.
func keyringError(d cmdutil.Deps, profile string) error {
	cf, err := d.ConfigFile()
	if err != nil {
		return nil
	}
	if p := cf.Profile(profile); p != nil {
		return p.SecretError("token")
	}
	return nil
}
