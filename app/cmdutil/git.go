package cmdutil

import (
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/internal/gitremote"
)

// Git is how this command runs git against the service: with the
// profile's token for the base URL's origin, through forge's credential
// helper pinned to the profile this command uses (see gitremote.Git).
// Without a token, git keeps its own credentials for that origin too.
func (d *Deps) Git() (gitremote.Git, error) {
	s, err := d.Settings()
	if err != nil {
		return gitremote.Git{}, err
	}
	// git asks for a password on the terminal itself (/dev/tty), not on
	// forge's stdout: `forge pr diff 3 | git apply` may still ask, a job
	// whose input is no terminal fails instead of waiting.
	g := gitremote.Git{NoPrompt: !d.IO.IsStdinTTY()}
	if s.Token == "" {
		return g, nil
	}
	g.Origin = config.Origin(s.BaseURL)
	// A profile named by --profile, FORGE_PROFILE or -R's host is named to
	// the helper too; otherwise it resolves the same profile itself.
	if s.ProfileSource == config.FromFlag || s.ProfileSource == config.FromEnv {
		g.Profile = s.Profile
	}
	return g, nil
}
