package auth

import (
	"context"
	"errors"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
)

var statusFields = []string{"profile", "base_url", "logged_in", "token_valid", "user", "full_name", "role", "twofa_enabled", "token", "token_source", "storage", "error"}

type statusOptions struct {
	cmdutil.Deps
	exporter *output.Exporter
	all      bool
}

func newStatusCmd(f *cmdutil.Factory, runF func(context.Context, *statusOptions) error) *cobra.Command {
	opts := &statusOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runStatus)
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show whether forge is logged in, as whom, and whether the token works",
		Long: `Show the current profile's service, user, role, two-factor state and
whether the service accepts the stored token (shown masked). Asks GET /me
and GET /me/state over one connection.

It also says where the profile keeps each secret it stores — the token, the
agent key and the registry password: in the OS keyring or in the config
file (--json storage).

--all shows every profile in turn, as gh shows every host (--json: a
list); each is resolved as --profile NAME would resolve it.

Exits 4 when not logged in or when the service rejects the token, 1 when
the service cannot be asked (forge help exit-codes); with --all, the worst
of the profiles'.`,
		Example: `  forge auth status
  forge auth status --json user,role,token_valid
  forge --profile production auth status
  forge auth status --all`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVarP(&opts.all, "all", "a", false, "Show every profile, not only the current one")
	opts.exporter = output.AddJSONFlags(cmd, statusFields...)
	return cmd
}

// status is what `auth status` found out.
type status struct {
	Profile      string `json:"profile"`
	BaseURL      string `json:"base_url"`
	LoggedIn     bool   `json:"logged_in"`
	TokenValid   bool   `json:"token_valid"`
	User         string `json:"user"`
	FullName     string `json:"full_name"`
	Role         string `json:"role"`
	TwoFAEnabled *bool  `json:"twofa_enabled"`
	Token        string `json:"token"` // masked
	TokenSource  string `json:"token_source"`
	// Storage says where the profile keeps each secret, by key: "keyring",
	// "config file", or "" for none.
	Storage map[string]string `json:"storage"`
	Error   string            `json:"error,omitempty"`

	unreadable map[string]string // why a secret in the keyring could not be read

	rejected bool     // the service answered 401
	notes    []string // environment the profile set aside (config.Settings.Notes)
	login    string   // how to log in to this profile (cmdutil.LoginHint)
}

func runStatus(ctx context.Context, opts *statusOptions) error {
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	if opts.all {
		return runStatusAll(ctx, opts)
	}
	st, err := statusOf(ctx, opts.Deps)
	if err != nil {
		return err
	}
	if opts.exporter.Enabled() {
		if err := opts.exporter.Write(opts.IO, st); err != nil {
			return err
		}
	} else {
		printStatus(opts.Deps, st)
	}
	return st.exit()
}

// runStatusAll is --all: each profile as --profile NAME shows it.
func runStatusAll(ctx context.Context, opts *statusOptions) error {
	cf, err := opts.ConfigFile()
	if err != nil {
		return err
	}
	names := cf.ProfileNames()
	if len(names) == 0 {
		return runStatus(ctx, &statusOptions{Deps: opts.Deps, exporter: opts.exporter})
	}
	var all []*status
	var worst error
	for i, name := range names {
		pf := opts.ForProfile(name)
		st, err := statusOf(ctx, pf)
		if err != nil {
			return err
		}
		all = append(all, st)
		if !opts.exporter.Enabled() {
			if i > 0 {
				opts.IO.Println()
			}
			printStatus(pf, st)
		}
		if e := st.exit(); e != nil && (worst == nil || cmdcore.ExitCode(e) > cmdcore.ExitCode(worst)) {
			worst = e
		}
	}
	if opts.exporter.Enabled() {
		if err := opts.exporter.Write(opts.IO, all); err != nil {
			return err
		}
	}
	return worst
}

// exit is the status's exit code: 4 when not logged in or the token was
// refused, 1 (silently: the status said why) when the service could not
// be asked.
func (st *status) exit() error {
	switch {
	case !st.LoggedIn || st.rejected:
		return &cmdcore.ExitError{Code: cmdcore.ExitAuth}
	case !st.TokenValid:
		return cmdcore.ErrSilent
	}
	return nil
}

// statusOf finds out the status of d's profile.
func statusOf(ctx context.Context, d cmdutil.Deps) (*status, error) {
	s, err := d.Settings()
	if err != nil {
		return nil, err
	}
	st := &status{Profile: s.Profile, BaseURL: s.BaseURL, User: s.User, Token: config.Mask(s.Token), TokenSource: sourceName(s, "token")}
	st.login = cmdutil.LoginHint(s)
	if err := storage(d, s.Profile, st); err != nil {
		return nil, err
	}
	if msg := s.WithheldError("base_url"); msg != "" && s.Token == "" {
		st.Error = msg
	}
	st.notes = s.Notes()
	if s.BaseURL != "" && s.Token != "" {
		st.LoggedIn = true
		if err := check(ctx, d, s, st); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// check asks the service who the token belongs to. A refused token or an
// unreachable service is recorded in st, not returned: status reports it.
func check(ctx context.Context, d cmdutil.Deps, s *config.Settings, st *status) error {
	c, err := d.REST()
	if err != nil {
		return err
	}
	me, err := c.Account.Me(ctx)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return err
		}
		var apiErr *client.Error
		st.rejected = errors.As(err, &apiErr) && apiErr.TokenRejected()
		st.Error = err.Error()
		return nil
	}
	st.TokenValid = true
	st.User, st.FullName = me.Login, me.FullName
	state, err := c.Account.State(ctx)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return err
		}
		st.Error = err.Error()
		return nil
	}
	st.Role = state.Role
	on := state.TwoFAEnabled
	st.TwoFAEnabled = &on
	return nil
}

// storage records where the profile keeps each secret.
func storage(d cmdutil.Deps, profile string, st *status) error {
	cf, err := d.ConfigFile()
	if err != nil {
		return err
	}
	st.Storage, st.unreadable = map[string]string{}, map[string]string{}
	p := cf.Profile(profile)
	for _, k := range config.SecretKeys {
		st.Storage[k] = ""
		if p == nil {
			continue
		}
		st.Storage[k] = p.SecretLocation(k)
		if err := p.SecretError(k); err != nil {
			st.unreadable[k] = err.Error()
		}
	}
	return nil
}

func sourceName(s *config.Settings, key string) string {
	switch src := s.Sources[key]; src {
	case config.FromEnv:
		return config.EnvVar(key)
	case "":
		return ""
	default:
		return string(src)
	}
}

func printStatus(d cmdutil.Deps, st *status) {
	ios := d.IO
	cs := ios.ColorScheme()
	// What the service says (names, role, errors) is an argument of
	// Printf: sanitized on a terminal, like every server string.
	var b iostreams.Doc
	host := cs.Sprintf("%s", st.BaseURL)
	if st.BaseURL == "" {
		host = cs.Gray("(no service configured)")
	}
	b.Printf(cs, "%s  %s\n", cs.Bold(st.Profile), host)
	switch {
	case !st.LoggedIn && st.Error != "":
		b.Printf(cs, "  %s Not logged in: %s\n", cs.FailureIcon(), st.Error)
	case !st.LoggedIn:
		b.Printf(cs, "  %s Not logged in: %s\n", cs.FailureIcon(), st.login)
	case !st.TokenValid:
		if st.rejected {
			// The error says it all: rejected, why, and the fix.
			b.Printf(cs, "  %s %s\n", cs.FailureIcon(), st.Error)
		} else {
			b.Printf(cs, "  %s Could not check the token\n", cs.FailureIcon())
			b.Printf(cs, "  - Error: %s\n", st.Error)
		}
	default:
		who := cs.Bold(st.User)
		if st.FullName != "" && st.FullName != st.User {
			who += cs.Sprintf(" (%s)", st.FullName)
		}
		b.Printf(cs, "  %s Logged in as %s\n", cs.SuccessIcon(), who)
		if st.Role != "" {
			b.Printf(cs, "  - Role: %s\n", st.Role)
		}
		if st.TwoFAEnabled != nil {
			b.Printf(cs, "  - Two-factor authentication: %s\n", onOff(*st.TwoFAEnabled))
		}
		if st.Error != "" {
			b.Printf(cs, "  - %s %s\n", cs.WarningIcon(), st.Error)
		}
	}
	printSecrets(&b, cs, st)
	for _, n := range st.notes {
		b.Printf(cs, "  - %s\n", cs.Gray(text.OneLine(n)))
	}
	ios.Print(b.Styled())
}

// printSecrets writes a line per secret in use or stored: the token masked
// and where it comes from, and where the profile keeps each one.
func printSecrets(b *iostreams.Doc, cs *iostreams.ColorScheme, st *status) {
	for _, k := range config.SecretKeys {
		label := config.SecretName(k)
		label = strings.ToUpper(label[:1]) + label[1:]
		where := st.Storage[k]
		if k == "token" && st.Token != "" {
			where := from(cs, st.TokenSource)
			if where == "" {
				where = cs.Gray(" (in the " + st.Storage[k] + ")")
			}
			b.Printf(cs, "  - %s: %s%s\n", label, st.Token, where)
			continue
		}
		switch {
		case st.unreadable[k] != "":
			b.Printf(cs, "  - %s: in the keyring, which did not give it: %s\n", label, st.unreadable[k])
		case where != "":
			b.Printf(cs, "  - %s: stored in the %s\n", label, where)
		}
	}
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func from(cs *iostreams.ColorScheme, src string) iostreams.Styled {
	if src == "" || src == string(config.FromFile) {
		return ""
	}
	return cs.Gray(" (from " + src + ")")
}
