package auth

import (
	"context"

	"github.com/forgehq/forge/app/authflow"
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/config"
)

// codeAttempts is how many codes a prompt accepts before giving up; the
// reference server revokes a pending login token after five wrong codes.
const codeAttempts = 3

// withCode runs try with a TOTP code: the given one (from --code or the
// environment) once, or codes typed at a prompt, up to codeAttempts. A
// refused code is an AuthError (exit 4). Without a code and without a
// terminal it is a usage error naming the flag.
func withCode(ctx context.Context, d cmdutil.Deps, given, flagHint string, try func(code string) error) error {
	if given != "" {
		code, err := authflow.NormalizeCode(given)
		if err != nil {
			return &cmdcore.UsageError{Err: err}
		}
		if err := try(code); err != nil {
			return authflow.CodeError(err)
		}
		return nil
	}
	ios := d.IO
	if !ios.CanPrompt() {
		return cmdcore.UsageErrorf("a two-factor code is needed: pass %s", flagHint)
	}
	cs := ios.ErrColorScheme()
	for attempt := 1; ; attempt++ {
		typed, err := d.Prompter.Input(ctx, "Two-factor code from your authenticator app", "")
		if err != nil {
			return err
		}
		code, err := authflow.NormalizeCode(typed)
		if err == nil {
			err = try(code)
			if err == nil {
				return nil
			}
			if locked := authflow.CodesLocked(err); locked != nil {
				return locked
			}
			if !authflow.WrongCode(err) {
				return err
			}
		}
		if attempt == codeAttempts {
			return cmdcore.AuthErrorf("the two-factor code was not accepted: %s", authflow.Summary(err))
		}
		ios.ErrPrintf("%s %s. Try again; codes change every 30 seconds.\n", cs.FailureIcon(), authflow.Summary(err))
	}
}

// profileName is the profile a login or logout acts on: --profile, then
// FORGE_PROFILE, then the file's current profile, then "default". Unlike
// Deps.Settings it accepts a profile that does not exist yet, which a
// first login creates.
func profileName(d cmdutil.Deps, cf *config.File) (string, error) {
	name := d.ProfileChoice()
	if name == "" {
		name = d.Getenv("FORGE_PROFILE")
	}
	if name == "" {
		name = cf.CurrentProfile
	}
	if name == "" {
		name = config.DefaultProfile
	}
	if err := config.ValidProfileName(name); err != nil {
		return "", &cmdcore.UsageError{Err: err}
	}
	return name, nil
}

// resolve returns the settings of profile name, also when the profile does
// not exist yet (then from the environment alone).
func resolve(d cmdutil.Deps, cf *config.File, name string) (*config.Settings, error) {
	if cf.Profile(name) == nil {
		cf = &config.File{Profiles: map[string]*config.Profile{name: {}}}
	}
	s, err := config.Resolve(cf, name, d.Getenv)
	if err != nil {
		return nil, &cmdcore.UsageError{Err: err}
	}
	return s, nil
}
