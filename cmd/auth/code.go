package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/forgehq/forge/internal/text"
)

// codeAttempts is how many codes a prompt accepts before giving up; the
// reference server revokes a pending login token after five wrong codes.
const codeAttempts = 3

// normalizeCode accepts a TOTP code as apps show it ("123 456") and checks
// it is 6 to 8 digits.
func normalizeCode(s string) (string, error) {
	c := strings.NewReplacer(" ", "", "-", "", "\t", "").Replace(strings.TrimSpace(s))
	if len(c) < 6 || len(c) > 8 || strings.Trim(c, "0123456789") != "" {
		return "", fmt.Errorf("%q is not a two-factor code: give the 6 digits your authenticator app shows", s)
	}
	return c, nil
}

// wrongCode reports whether the service refused a TOTP code (rather than
// failing otherwise). The spec does not show the status; the reference
// server answers 401 at login and 422 elsewhere, and 400 and 403 are
// plausible too.
func wrongCode(err error) bool {
	var apiErr *client.Error
	if !errors.As(err, &apiErr) {
		return false
	}
	switch apiErr.StatusCode {
	case http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden, http.StatusUnprocessableEntity:
		return true
	}
	return false
}

// codesLocked is the AuthError for a service that refuses codes for a
// while after too many wrong ones (429), saying how long from its
// Retry-After; nil for any other error. The server's own message is not
// needed for that, and not trusted to say it.
func codesLocked(err error) error {
	var apiErr *client.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusTooManyRequests {
		return nil
	}
	wait := "a while"
	if apiErr.RetryAfter > 0 {
		wait = apiErr.RetryAfter.Round(time.Second).String()
	}
	return cmdutil.AuthErrorf("too many wrong two-factor codes: the service refuses codes for this account for now; wait %s, then log in again", wait)
}

// withCode runs try with a TOTP code: the given one (from --code or the
// environment) once, or codes typed at a prompt, up to codeAttempts. A
// refused code is an AuthError (exit 4). Without a code and without a
// terminal it is a usage error naming the flag.
func withCode(ctx context.Context, f *cmdutil.Factory, given, flagHint string, try func(code string) error) error {
	if given != "" {
		code, err := normalizeCode(given)
		if err != nil {
			return &cmdutil.UsageError{Err: err}
		}
		if err := try(code); err != nil {
			if locked := codesLocked(err); locked != nil {
				return locked
			}
			if wrongCode(err) {
				return cmdutil.AuthErrorf("the two-factor code was not accepted: %s", errorSummary(err))
			}
			return err
		}
		return nil
	}
	ios := f.IOStreams
	if !ios.CanPrompt() {
		return cmdutil.UsageErrorf("a two-factor code is needed: pass %s", flagHint)
	}
	cs := ios.ErrColorScheme()
	for attempt := 1; ; attempt++ {
		typed, err := f.Prompter.Input(ctx, "Two-factor code from your authenticator app", "")
		if err != nil {
			return err
		}
		code, err := normalizeCode(typed)
		if err == nil {
			err = try(code)
			if err == nil {
				return nil
			}
			if locked := codesLocked(err); locked != nil {
				return locked
			}
			if !wrongCode(err) {
				return err
			}
		}
		if attempt == codeAttempts {
			return cmdutil.AuthErrorf("the two-factor code was not accepted: %s", errorSummary(err))
		}
		fmt.Fprintf(ios.ErrOut, "%s %s. Try again; codes change every 30 seconds.\n", cs.FailureIcon(), text.OnTerminal(ios.IsStderrTTY(), errorSummary(err)))
	}
}

// errorSummary is the server's message of an API error, else the error.
func errorSummary(err error) string {
	var apiErr *client.Error
	if errors.As(err, &apiErr) && apiErr.Message != "" {
		return apiErr.Message
	}
	return err.Error()
}

// profileName is the profile a login or logout acts on: --profile, then
// FORGE_PROFILE, then the file's current profile, then "default". Unlike
// Factory.Settings it accepts a profile that does not exist yet, which a
// first login creates.
func profileName(f *cmdutil.Factory, cf *config.File) (string, error) {
	name := f.ProfileFlag
	if name == "" {
		name = f.Getenv("FORGE_PROFILE")
	}
	if name == "" {
		name = cf.CurrentProfile
	}
	if name == "" {
		name = config.DefaultProfile
	}
	if err := config.ValidProfileName(name); err != nil {
		return "", &cmdutil.UsageError{Err: err}
	}
	return name, nil
}

// resolve returns the settings of profile name, also when the profile does
// not exist yet (then from the environment alone).
func resolve(f *cmdutil.Factory, cf *config.File, name string) (*config.Settings, error) {
	if cf.Profile(name) == nil {
		cf = &config.File{Profiles: map[string]*config.Profile{name: {}}}
	}
	s, err := config.Resolve(cf, name, f.Getenv)
	if err != nil {
		return nil, &cmdutil.UsageError{Err: err}
	}
	return s, nil
}
