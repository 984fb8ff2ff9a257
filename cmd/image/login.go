package image

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/internal/origin"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/regclient"
	"github.com/spf13/cobra"
)

type loginOptions struct {
	cmdutil.Deps
	username      string
	passwordStdin bool
	insecure      bool
	trustHost     string
}

func newLoginCmd(f *cmdutil.Factory, runF func(context.Context, *loginOptions) error) *cobra.Command {
	opts := &loginOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runLogin)
	cmd := &cobra.Command{
		Use:   "login [--username USER] [--password-stdin]",
		Short: "Log in to the container registry and store the credentials",
		Long: `Log in to the profile's container registry with your account's username and
password. forge checks them by fetching a registry token, then stores them in
the profile: the password in the OS keyring, or in the config file (mode
0600) when no keyring service answers or with --insecure-storage. A failed
login stores nothing and keeps what was stored before. A registry that answers
without credentials needs no login: forge says so, asks for nothing and stores
nothing.

The password goes only to the registry's and the service's own origins
(scheme, host and port, exactly). A registry whose token service lives on
another origin (its challenge's realm) is named at login: trust that host by answering the question on a terminal, or with
--trust-token-host HOST; the answer is kept in the profile, and a realm that
moves to yet another host later is refused until you log in again.

The username defaults to FORGE_USERNAME, then the profile's user. On a terminal
the password is asked for without echo; otherwise pass --password-stdin. In CI
you need not log in at all: FORGE_USERNAME and FORGE_PASSWORD are used directly.`,
		Example: `  forge image login
  forge image login --username alice
  printenv FORGE_PASSWORD | forge image login --username alice --password-stdin
  forge image login --trust-token-host auth.example.com`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runF(cmd.Context(), opts) },
	}
	cmd.Flags().StringVarP(&opts.username, "username", "u", "", "Account `name` (default: FORGE_USERNAME, else the profile's user)")
	cmd.Flags().BoolVar(&opts.passwordStdin, "password-stdin", false, "Read the password from standard input")
	cmd.Flags().BoolVar(&opts.insecure, "insecure-storage", false, config.InsecureStorageUsage)
	cmd.Flags().StringVar(&opts.trustHost, "trust-token-host", "", "Send the password to the registry's token service on this `host[:port]`, another host than the registry's and the service's (stored in the profile)")
	return cmd
}

func runLogin(ctx context.Context, opts *loginOptions) error {
	ios := opts.IO
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	c, err := opts.Registry()
	if err != nil {
		return err
	}
	// Asked before any prompt: a registry open to anyone needs nothing,
	// and one whose token service is elsewhere needs the user's word.
	probe, err := c.Probe(ctx)
	if err != nil {
		return err
	}
	if !probe.NeedsLogin {
		cs := ios.ErrColorScheme()
		ios.ErrPrintf("%s %s needs no login: it answers without credentials; nothing was stored, and image commands there work without one\n", cs.SuccessIcon(), c.Host())
		return nil
	}
	// The password would be stored for the profile's registry: one it was
	// not checked against must not receive it later.
	if s.ProfileRegistry != "" && !origin.SameString(s.RegistryURL, s.ProfileRegistry) {
		return cmdcore.UsageErrorf("%s is not profile %s's registry (%s): a login there would be stored for the wrong registry; add a profile for it (`forge profile add NAME --base-url URL --registry-url %s`), or unset FORGE_REGISTRY_URL", c.Host(), s.Profile, config.Origin(s.ProfileRegistry), s.RegistryURL)
	}
	tokenHost, err := trustTokenHost(ctx, opts, c, s, probe)
	if err != nil {
		return err
	}
	user := opts.username
	if user == "" {
		user = s.RegistryUser
	}
	if user == "" {
		if !ios.CanPrompt() {
			return cmdcore.UsageErrorf("no username: pass --username USER (or set FORGE_USERNAME)")
		}
		if user, err = opts.Prompter.Input(ctx, "Username for "+c.Host(), ""); err != nil {
			return err
		}
	}
	user = strings.TrimSpace(user)
	password, err := readPassword(ctx, opts, user, c.Host())
	if err != nil {
		return err
	}
	if err := c.Login(ctx, user, password); err != nil {
		if cmdcore.ExitCode(err) == cmdcore.ExitAuth && !errors.As(err, new(*regclient.WithheldError)) {
			return cmdcore.AuthErrorf("login to %s failed: wrong username or password for %s; nothing was stored", c.Host(), user)
		}
		return err
	}
	saved, err := opts.UpdateProfile(s.Profile, opts.insecure, func(p *config.Profile) error {
		// Credentials without an address would be for nothing: keep the
		// registry they were checked against when the profile has none.
		if p.RegistryURL == "" && p.BaseURL == "" {
			p.RegistryURL = s.RegistryURL
		}
		p.RegistryUser, p.RegistryPassword = user, password
		p.RegistryTokenHost = tokenHost
		return nil
	})
	if err != nil {
		return err
	}
	cs := ios.ErrColorScheme()
	ios.ErrPrintf("%s Logged in to %s as %s (profile %s)\n", cs.SuccessIcon(), c.Host(), cs.Bold(user), s.Profile)
	if n := saved.PlainTextNotice(); n != "" {
		ios.ErrPrintf("%s %s\n", cs.WarningIcon(), n)
	}
	if opts.Getenv("FORGE_USERNAME") != "" || opts.Getenv("FORGE_PASSWORD") != "" {
		ios.ErrPrintf("%s FORGE_USERNAME or FORGE_PASSWORD is set and takes precedence over the stored credentials\n", cs.WarningIcon())
	}
	return nil
}

// readPassword takes the password from stdin (--password-stdin), a prompt
// without echo on a terminal, or FORGE_PASSWORD.
func readPassword(ctx context.Context, opts *loginOptions, user, host string) (string, error) {
	ios := opts.IO
	var pw string
	switch {
	case opts.passwordStdin:
		b, err := io.ReadAll(io.LimitReader(ios.In, 64<<10))
		if err != nil {
			return "", fmt.Errorf("reading the password from stdin: %w", err)
		}
		pw = strings.TrimRight(string(b), "\r\n")
	case ios.CanPrompt():
		p, err := opts.Prompter.Password(ctx, fmt.Sprintf("Password for %s at %s", user, host))
		if err != nil {
			return "", err
		}
		pw = p
	case opts.Getenv("FORGE_PASSWORD") != "":
		pw = opts.Getenv("FORGE_PASSWORD")
	default:
		return "", cmdcore.UsageErrorf("no password: pipe it in with --password-stdin, as in `printenv FORGE_PASSWORD | forge image login --username %s --password-stdin`", user)
	}
	if pw == "" {
		return "", cmdcore.UsageErrorf("empty password: pipe the password in with --password-stdin")
	}
	return pw, nil
}

// trustTokenHost decides whether the password may go to the token service
// the registry's challenge names (its realm's origin), and returns the
// origin to store in the profile: "" when it is the registry's or the
// service's own, the one the profile trusts already, or a new one the user
// trusts now, by --trust-token-host or by answering the question on a
// terminal. Origins compare exactly (internal/origin): localhost and
// 127.0.0.1 are two token services.
func trustTokenHost(ctx context.Context, opts *loginOptions, c *regclient.Client, s *config.Settings, probe regclient.Probe) (string, error) {
	realm, realmHost := probe.TokenOrigin, probe.TokenHost
	switch {
	case realm == "":
		return "", nil
	case s.RegistryTokenHost != "" && origin.OfHost(s.RegistryTokenHost) == realm:
		return realm, nil
	case c.Trusts(realm):
		return "", nil
	}
	ios := opts.IO
	shown := text.OneLine(realmHost)
	switch {
	case opts.trustHost != "" && (strings.EqualFold(opts.trustHost, realmHost) || origin.OfHost(opts.trustHost) == realm):
	case opts.trustHost != "":
		return "", cmdcore.UsageErrorf("%s sends logins to %s, not to %s: nothing was stored; pass --trust-token-host %s if you trust it", c.Host(), shown, opts.trustHost, shown)
	case ios.CanPrompt():
		ok, err := opts.Prompter.Confirm(ctx, fmt.Sprintf("%s sends logins to its token service at %s, another host. Send your password there?", c.Host(), shown), false)
		if err != nil {
			return "", err
		}
		if !ok {
			return "", cmdcore.UsageErrorf("login to %s cancelled: its token service at %s is not trusted; nothing was stored", c.Host(), shown)
		}
	default:
		return "", cmdcore.UsageErrorf("%s sends logins to its token service at %s, another host: pass --trust-token-host %s if you trust it (it is kept in the profile); nothing was stored", c.Host(), shown, shown)
	}
	c.Trust(realm)
	return realm, nil
}
