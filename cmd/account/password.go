package account

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/forgehq/forge/app/authflow"
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/spf13/cobra"
)

type passwordOptions struct {
	cmdutil.Deps
	// changed stores the new password and token where the profile keeps
	// them (authflow.PasswordChanged, on the Factory's configuration).
	changed func(s *config.Settings, newPW, token string) (authflow.Changed, error)
	stdin   bool
}

func newPasswordCmd(f *cmdutil.Factory, runF func(context.Context, *passwordOptions) error) *cobra.Command {
	opts := &passwordOptions{Deps: f.Deps()}
	opts.changed = func(s *config.Settings, newPW, token string) (authflow.Changed, error) {
		return authflow.PasswordChanged(f, s, newPW, token)
	}
	runF = cmdcore.Seam(runF, runPassword)
	cmd := &cobra.Command{
		Use:   "password",
		Short: "Change your password",
		Long: fmt.Sprintf(`Change your password. forge asks for the current password and for the
new one twice, without echo; a new password under %d characters is refused
before anything is sent. Without a terminal, pass --stdin and send the
current and the new password as the first two lines of standard input.

If the service revokes tokens on a password change and sends a new token
(the reference server does), forge stores the new one in the profile, so
you stay logged in. The registry password the profile stores for this
account (`+"`forge image login`"+`) is the account's password: it is updated too.`, client.MinPasswordLength),
		Example: `  forge account password
  printf '%s\n%s\n' "$OLD" "$NEW" | forge account password --stdin`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.stdin, "stdin", false, "Read the current and the new password from standard input, one per line")
	return cmd
}

func runPassword(ctx context.Context, opts *passwordOptions) error {
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	c, err := opts.REST()
	if err != nil {
		return err
	}
	oldPW, newPW, err := opts.read(ctx)
	if err != nil {
		return err
	}
	token, err := c.Account.ChangePassword(ctx, oldPW, newPW)
	if err != nil {
		return explainPasswordError(ctx, c, err)
	}
	ios := opts.IO
	cs := ios.ErrColorScheme()
	ios.ErrPrintf("%s Password changed\n", cs.SuccessIcon())
	ch, err := opts.changed(s, newPW, token)
	if err != nil {
		return err
	}
	if ch.Registry {
		ios.ErrPrintf("%s Stored the new password for the registry (profile %s)\n", cs.SuccessIcon(), s.Profile)
	}
	return keepLoggedIn(ctx, ios, s, c, ch, token != "")
}

// read gets the current and new password from stdin (--stdin) or prompts,
// checking the new one before any request.
func (o *passwordOptions) read(ctx context.Context) (oldPW, newPW string, err error) {
	ios := o.IO
	if o.stdin {
		sc := bufio.NewScanner(ios.In)
		var lines []string
		for len(lines) < 2 && sc.Scan() {
			lines = append(lines, strings.TrimRight(sc.Text(), "\r"))
		}
		if len(lines) < 2 {
			return "", "", cmdcore.UsageErrorf("--stdin needs two lines on standard input: the current password, then the new one")
		}
		oldPW, newPW = lines[0], lines[1]
		return oldPW, newPW, authflow.CheckNewPassword(oldPW, newPW)
	}
	if !ios.CanPrompt() {
		return "", "", cmdcore.UsageErrorf("no terminal to ask for the passwords: pass --stdin and send the current and the new password as two lines")
	}
	p := o.Prompter
	if oldPW, err = p.Password(ctx, "Current password"); err != nil {
		return "", "", err
	}
	cs := ios.ErrColorScheme()
	// A mistake in the new password asks for it again, keeping the current
	// password already typed.
	for attempt := 1; attempt <= 3; attempt++ {
		first, err := p.Password(ctx, fmt.Sprintf("New password (at least %d characters)", client.MinPasswordLength))
		if err != nil {
			return "", "", err
		}
		if err := authflow.CheckNewPassword(oldPW, first); err != nil {
			ios.ErrPrintf("%s %v\n", cs.FailureIcon(), err)
			continue
		}
		again, err := p.Password(ctx, "New password again")
		if err != nil {
			return "", "", err
		}
		if again != first {
			ios.ErrPrintf("%s The two new passwords differ; once more\n", cs.FailureIcon())
			continue
		}
		return oldPW, first, nil
	}
	return "", "", cmdcore.UsageErrorf("no new password after 3 tries; nothing changed")
}

// explainPasswordError turns the service's refusal of the current password
// into an AuthError. The spec does not show the status (the reference
// server answers 403); a 401 is told apart from a rejected token by asking
// GET /me, which works when only the password was wrong.
func explainPasswordError(ctx context.Context, c *client.Client, err error) error {
	var apiErr *client.Error
	if !errors.As(err, &apiErr) {
		return err
	}
	switch apiErr.StatusCode {
	case http.StatusForbidden:
	case http.StatusUnauthorized:
		if _, meErr := c.Account.Me(ctx); meErr != nil {
			return err
		}
	default:
		return err
	}
	msg := apiErr.Message
	if msg == "" {
		msg = "refused"
	}
	return cmdcore.AuthErrorf("the current password is not right (%s); nothing changed", msg)
}

// keepLoggedIn says what became of the token: the new one the service
// issued is stored (PasswordChanged), or without one, the old token must
// still work.
func keepLoggedIn(ctx context.Context, ios *iostreams.IOStreams, s *config.Settings, c *client.Client, ch authflow.Changed, issued bool) error {
	cs := ios.ErrColorScheme()
	switch {
	case ch.Token:
		ios.ErrPrintf("%s Stored the new token the service issued (profile %s)\n", cs.SuccessIcon(), s.Profile)
	case ch.TokenFromEnv:
		ios.ErrPrintf("%s The service issued a new token; the one in %s may no longer work. `forge auth login` stores a new one.\n", cs.WarningIcon(), config.EnvVar("token"))
	case !issued:
		if _, err := c.Account.Me(ctx); err != nil {
			var apiErr *client.Error
			if errors.As(err, &apiErr) && apiErr.TokenRejected() {
				ios.ErrPrintf("%s The service revoked the token; run `forge auth login` with the new password\n", cs.WarningIcon())
				return nil
			}
			return err
		}
	}
	return nil
}
