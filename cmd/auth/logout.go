package auth

import (
	"context"
	"fmt"

	"github.com/forgehq/forge/app/authflow"
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
		Short: "Log out: revoke the token and remove every secret of the current profile",
		Long: `Remove every secret the current profile stores — the token, the registry
password and the agent key — from the OS keyring and the config file. The
profile's addresses and usernames stay, so ` + "`forge auth login`" + ` offers the same
username and asks only for the password.

The token is also revoked on the service when it offers POST /auth/logout
(the reference server does; the specification does not show revocation),
and forge says "Revoked the token on the service" when the service
confirmed it. When it could not be revoked — a service answering 404 or 405
has no such endpoint, or the service did not answer — forge says so (the
token may stay valid there until it expires) and removes the secrets here
all the same.`,
		Example: `  forge auth logout
  forge --profile dev auth logout`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), opts)
		},
	}
}

func runLogout(ctx context.Context, opts *logoutOptions) error {
	cf, err := opts.ConfigFile()
	if err != nil {
		return err
	}
	name, err := profileName(opts.Deps, cf)
	if err != nil {
		return err
	}
	ios := opts.IO
	cs := ios.ErrColorScheme()
	p := cf.Profile(name)
	if p == nil || !p.HasSecrets() {
		if opts.Getenv("FORGE_TOKEN") != "" {
			return fmt.Errorf("no token stored in profile %q; the token in use comes from FORGE_TOKEN: unset it", name)
		}
		return cmdcore.AuthErrorf("not logged in (profile %q has no token)", name)
	}
	if p.Token != "" {
		revoke(ctx, opts.Deps, p.BaseURL, p.Token)
	}
	for _, k := range config.SecretKeys {
		if err := p.SecretError(k); err != nil {
			fate := "it may stay there"
			if k == "token" {
				fate = "it was not revoked and may stay there"
			}
			ios.ErrPrintf("%s Could not read the %s from the keyring (%s): %s; remove it with the keyring's own tool\n", cs.WarningIcon(), config.SecretName(k), err.Error(), fate)
		}
	}
	removed := p.StoredSecrets()
	err = opts.UpdateConfig(func(cf *config.File) error {
		if p := cf.Profile(name); p != nil {
			p.ClearSecrets()
		}
		return nil
	})
	if err != nil {
		return err
	}
	where := p.BaseURL
	if where == "" {
		where = "the service"
	}
	ios.ErrPrintf("%s Logged out of %s (profile %s): removed the %s\n", cs.SuccessIcon(), where, name, removed)
	if opts.Getenv("FORGE_TOKEN") != "" {
		ios.ErrPrintf("%s FORGE_TOKEN is still set in the environment; unset it too\n", cs.WarningIcon())
	}
	return nil
}

// revoke asks the service to revoke the token and says what it answered:
// revoked, already unknown to it, or not revoked (no logout endpoint, no
// answer, a refusal), in which case the token may stay valid there. The
// secrets are removed here whatever the answer.
func revoke(ctx context.Context, d cmdutil.Deps, baseURL, token string) {
	ios := d.IO
	cs := ios.ErrColorScheme()
	notRevoked := func(why string) {
		ios.ErrPrintf("%s Could not revoke the token on the service: %s; it may stay valid there until it expires\n", cs.WarningIcon(), why)
	}
	if baseURL == "" {
		notRevoked("the profile names no service address")
		return
	}
	c, err := d.RESTClient(baseURL, token)
	if err != nil {
		notRevoked(err.Error())
		return
	}
	got, err := authflow.Revoke(ctx, c)
	switch {
	case err != nil:
		notRevoked(err.Error())
	case got == authflow.NoEndpoint:
		notRevoked("the service has no logout endpoint (POST /auth/logout)")
	case got == authflow.Unknown:
		ios.ErrPrintf("%s The service no longer knew the token (revoked or expired before): nothing to revoke\n", cs.SuccessIcon())
	default:
		ios.ErrPrintf("%s Revoked the token on the service\n", cs.SuccessIcon())
	}
}
