package auth

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"

	"github.com/forgehq/forge/app/authflow"
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/internal/gitremote"
	"github.com/spf13/cobra"
)

type loginOptions struct {
	cmdutil.Deps
	baseURL       string
	username      string
	passwordStdin bool
	withToken     bool
	code          string
	insecure      bool
	setupGit      bool
	setupGitSet   bool
}

func newLoginCmd(f *cmdutil.Factory, runF func(context.Context, *loginOptions) error) *cobra.Command {
	opts := &loginOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runLogin)
	cmd := &cobra.Command{
		Use:   "login",
		Short: "Log in to the service and store the token in the current profile",
		Long: `Log in with your username and password and store the token the service
issues, with your username, in the current profile (see ` + "`forge profile`" + `). On a
fresh configuration, --base-url creates the profile and makes it current.

What is not given is asked for on a terminal (the password without echo).
Without a terminal, a missing value is an error naming its flag:
  --base-url or FORGE_BASE_URL        the REST API, https://HOST/api/v2
  --username or FORGE_USERNAME
  --password-stdin or FORGE_PASSWORD  the password
  --code or FORGE_TOTP_CODE           the two-factor code, if the account has 2FA on

With --with-token, forge stores a token you already have (made on the
service's web page, or by another tool) instead of logging in with a
password: it reads the token from standard input (asking for it, without
echo, on a terminal), checks it with GET /me and stores it with the user
it belongs to, as a login does. A token the service refuses stores nothing
(exit 4).

The stored token is replaced only after a fully successful login: a wrong
password, code or token leaves the profile as it was. It is stored in the OS
keyring (Secret Service, macOS Keychain, Windows Credential Manager); when
no keyring service answers within 3 seconds (a headless CI machine), or with
--insecure-storage, in the config file (mode 0600). ` + "`forge auth status`" + ` says
which.`,
		Example: `  forge auth login --base-url https://forge.example.com/api/v2
  forge auth login --username alice
  echo "$PASSWORD" | forge auth login --username alice --password-stdin --code 123456
  forge auth login --with-token < token.txt`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.setupGitSet = cmd.Flags().Changed("setup-git")
			return runF(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.baseURL, "base-url", "", "REST API base `URL`, ending in /api/v2")
	fl.StringVarP(&opts.username, "username", "u", "", "Account `name` (also FORGE_USERNAME)")
	fl.BoolVar(&opts.passwordStdin, "password-stdin", false, "Read the password from standard input")
	fl.BoolVar(&opts.withToken, "with-token", false, "Store a token made elsewhere, read from standard input, instead of logging in with a password")
	fl.StringVar(&opts.code, "code", "", "Two-factor `code` from your authenticator app (also FORGE_TOTP_CODE)")
	fl.BoolVar(&opts.insecure, "insecure-storage", false, config.InsecureStorageUsage)
	fl.BoolVar(&opts.setupGit, "setup-git", false, "Also make git use forge's token for the host, as forge auth setup-git does (--setup-git=false: never ask)")
	return cmd
}

// credentials are what a login needs, gathered before any request.
type credentials struct {
	profile  string
	baseURL  string
	username string
	password string
	code     string
}

func runLogin(ctx context.Context, opts *loginOptions) error {
	cf, err := opts.ConfigFile()
	if err != nil {
		return err
	}
	name, err := profileName(opts.Deps, cf)
	if err != nil {
		return err
	}
	s, err := resolve(opts.Deps, cf, name)
	if err != nil {
		return err
	}
	logIn := opts.withPassword
	if opts.withToken {
		logIn = opts.withGivenToken
	}
	cred, token, me, err := logIn(ctx, name, s)
	if err != nil {
		return err
	}
	replaced, saved, err := store(opts.Deps, cred, token, me.Login, opts.insecure)
	if err != nil {
		return err
	}
	ios := opts.IO
	cs := ios.ErrColorScheme()
	ios.ErrPrintf("%s Logged in to %s as %s (profile %s)\n", cs.SuccessIcon(), cred.baseURL, cs.Bold(me.Login), name)
	if n := saved.PlainTextNotice(); n != "" {
		ios.ErrPrintf("%s %s\n", cs.WarningIcon(), n)
	}
	if replaced != "" {
		ios.ErrPrintf("%s Profile %s now points at %s instead of %s\n", cs.WarningIcon(), name, cred.baseURL, replaced)
	}
	if opts.Getenv("FORGE_TOKEN") != "" {
		ios.ErrPrintf("%s FORGE_TOKEN is set in the environment and overrides the stored token\n", cs.WarningIcon())
	}
	return opts.offerGit(ctx, cred.baseURL)
}

// withPassword logs in with a username and password (and a two-factor
// code when the account asks for one).
func (opts *loginOptions) withPassword(ctx context.Context, name string, s *config.Settings) (*credentials, string, *client.User, error) {
	cred, err := opts.gather(ctx, name, s)
	if err != nil {
		return nil, "", nil, err
	}
	c, err := opts.RESTClient(cred.baseURL, "")
	if err != nil {
		return nil, "", nil, err
	}
	token, me, err := login(ctx, opts.Deps, c, cred)
	return cred, token, me, err
}

// withGivenToken takes a token made elsewhere from standard input and
// checks it with the service (authflow.CheckToken), as gh's --with-token.
func (opts *loginOptions) withGivenToken(ctx context.Context, name string, s *config.Settings) (*credentials, string, *client.User, error) {
	if opts.username != "" || opts.passwordStdin || opts.code != "" {
		return nil, "", nil, cmdcore.UsageErrorf("--with-token stores a token: it takes no --username, --password-stdin or --code")
	}
	baseURL, err := opts.baseURLFor(ctx, name, s)
	if err != nil {
		return nil, "", nil, err
	}
	token, err := opts.readToken(ctx)
	if err != nil {
		return nil, "", nil, err
	}
	c, err := opts.RESTClient(baseURL, "")
	if err != nil {
		return nil, "", nil, err
	}
	me, err := authflow.CheckToken(ctx, c, token)
	if err != nil {
		return nil, "", nil, fmt.Errorf("%w; nothing was stored", err)
	}
	return &credentials{profile: name, baseURL: baseURL}, token, me, nil
}

// readToken reads --with-token's token: asked for without echo on a
// terminal, else standard input, which must hold the token alone.
func (opts *loginOptions) readToken(ctx context.Context) (string, error) {
	ios := opts.IO
	if ios.IsStdinTTY() {
		v, err := opts.Prompter.Password(ctx, "Token")
		return strings.TrimSpace(v), err
	}
	b, err := io.ReadAll(io.LimitReader(ios.In, 64<<10))
	if err != nil {
		return "", fmt.Errorf("reading the token from standard input: %w", err)
	}
	token := strings.TrimSpace(string(b))
	switch {
	case token == "":
		return "", cmdcore.UsageErrorf("--with-token read no token from standard input: send it there, as in `forge auth login --with-token < token.txt`")
	case strings.ContainsAny(token, " \t\r\n"):
		return "", cmdcore.UsageErrorf("--with-token read more than a token from standard input: send the token alone")
	}
	return token, nil
}

// offerGit sets git up for the host, as gh's login does: with
// --setup-git, or when asked on a terminal (yes by default). Without a
// terminal and the flag it only says how, since git clone, fetch and push
// over HTTPS would otherwise ask for a password nothing else knows.
func (opts *loginOptions) offerGit(ctx context.Context, baseURL string) error {
	ios := opts.IO
	origin := config.Origin(baseURL)
	if _, err := exec.LookPath("git"); err != nil || gitremote.UsesForge(ctx, origin) {
		return nil
	}
	want := opts.setupGit
	switch {
	case opts.setupGitSet:
	case ios.CanPrompt():
		var err error
		if want, err = opts.Prompter.Confirm(ctx, "Make git use this login for "+origin+" (clone, fetch and push over HTTPS)?", true); err != nil {
			return err
		}
	default:
		ios.ErrPrintf("%s git over HTTPS to %s will ask for a password: run `forge auth setup-git` (or log in with --setup-git) to use this login\n", ios.ErrColorScheme().WarningIcon(), origin)
		return nil
	}
	if !want {
		return nil
	}
	return runSetupGit(ctx, &setupGitOptions{Deps: opts.Deps})
}

// gather collects the base URL, username, password and code from flags,
// environment and prompts, failing before any request when one is missing
// and cannot be asked for.
func (o *loginOptions) gather(ctx context.Context, name string, s *config.Settings) (*credentials, error) {
	ios := o.IO
	baseURL, err := o.baseURLFor(ctx, name, s)
	if err != nil {
		return nil, err
	}
	cred := &credentials{profile: name, baseURL: baseURL, username: o.username, code: o.code}

	if cred.username == "" {
		cred.username = o.Getenv("FORGE_USERNAME")
		if cred.username != "" {
			o.WarnEnvUser("logging in")
		}
	}
	if cred.username == "" {
		if !ios.CanPrompt() || o.passwordStdin {
			return nil, cmdcore.UsageErrorf("no username: pass --username NAME (or set FORGE_USERNAME)")
		}
		v, err := o.Prompter.Input(ctx, "Username", s.User)
		if err != nil {
			return nil, err
		}
		cred.username = strings.TrimSpace(v)
		if cred.username == "" {
			return nil, cmdcore.UsageErrorf("no username given")
		}
	}

	switch {
	case o.passwordStdin:
		b, err := io.ReadAll(io.LimitReader(ios.In, 64<<10))
		if err != nil {
			return nil, fmt.Errorf("reading the password from standard input: %w", err)
		}
		cred.password = strings.TrimRight(string(b), "\r\n")
		if cred.password == "" {
			return nil, cmdcore.UsageErrorf("--password-stdin read an empty password")
		}
	case o.Getenv("FORGE_PASSWORD") != "":
		cred.password = o.Getenv("FORGE_PASSWORD")
	case ios.CanPrompt():
		v, err := o.Prompter.Password(ctx, "Password for "+cred.username)
		if err != nil {
			return nil, err
		}
		if v == "" {
			return nil, cmdcore.UsageErrorf("no password given")
		}
		cred.password = v
	default:
		return nil, cmdcore.UsageErrorf("no password: pass --password-stdin and send it on standard input (or set FORGE_PASSWORD)")
	}

	if cred.code == "" {
		cred.code = o.Getenv("FORGE_TOTP_CODE")
	}
	if cred.code != "" {
		if cred.code, err = authflow.NormalizeCode(cred.code); err != nil {
			return nil, &cmdcore.UsageError{Err: err}
		}
	}
	return cred, nil
}

// baseURLFor is the service to log in to: --base-url, else the
// profile's, else asked for on a terminal; normalised.
func (o *loginOptions) baseURLFor(ctx context.Context, name string, s *config.Settings) (string, error) {
	baseURL := s.BaseURL
	if o.baseURL != "" {
		baseURL = o.baseURL
	}
	if baseURL == "" {
		if !o.IO.CanPrompt() {
			return "", cmdcore.UsageErrorf("profile %q has no base URL: pass --base-url https://HOST/api/v2", name)
		}
		v, err := askBaseURL(ctx, o.Deps)
		if err != nil {
			return "", err
		}
		baseURL = v
	}
	norm, err := config.NormalizeBaseURL(baseURL)
	if err != nil {
		return "", &cmdcore.UsageError{Err: err}
	}
	return norm, nil
}

// login exchanges the credentials for a token, passes two-factor
// verification when the account needs it, and checks the token works. It
// changes nothing on disk.
func login(ctx context.Context, d cmdutil.Deps, anon *client.Client, cred *credentials) (token string, me *client.User, err error) {
	a, err := authflow.Start(ctx, anon, cred.username, cred.password)
	if err != nil {
		return "", nil, err
	}
	defer func() {
		if err != nil {
			a.Abandon(ctx)
		}
	}()
	if a.NeedsCode {
		flag := "--code CODE (or set FORGE_TOTP_CODE); this account has two-factor authentication on"
		if err := withCode(ctx, d, cred.code, flag, func(code string) error { return a.Verify(ctx, code) }); err != nil {
			return "", nil, err
		}
	}
	if me, err = a.Finish(ctx); err != nil {
		return "", nil, err
	}
	return a.Token, me, nil
}

// store writes the token and user into the profile (authflow.Store).
func store(d cmdutil.Deps, cred *credentials, token, user string, insecure bool) (replaced string, saved *config.File, err error) {
	return authflow.Store(d, cred.profile, cred.baseURL, token, user, insecure)
}

// askBaseURL prompts for the base URL until it is one (three tries): a
// typing mistake asks again, saying what was wrong, instead of ending the
// login.
func askBaseURL(ctx context.Context, d cmdutil.Deps) (string, error) {
	cs := d.IO.ErrColorScheme()
	var err error
	for range 3 {
		var v string
		if v, err = d.Prompter.Input(ctx, "REST API base URL (https://HOST/api/v2)", ""); err != nil {
			return "", err
		}
		if _, err = config.NormalizeBaseURL(v); err == nil {
			return v, nil
		}
		d.IO.ErrPrintf("%s %v\n", cs.FailureIcon(), err)
	}
	return "", &cmdcore.UsageError{Err: fmt.Errorf("no valid base URL after 3 tries: %w", err)}
}
