package cmdutil

import (
	"fmt"

	"github.com/forgehq/forge/config"
)

// LoginCommand is the command that logs in to the profile s resolved:
// `forge auth login`, or `forge --profile NAME auth login` when the
// profile was named by --profile or FORGE_PROFILE, since a plain
// `forge auth login` typed later, elsewhere, would log in to another one.
func LoginCommand(s *config.Settings) string {
	if s.ProfileSource == config.FromFlag || s.ProfileSource == config.FromEnv {
		return fmt.Sprintf("forge --profile %s auth login", s.Profile)
	}
	return "forge auth login"
}

// LoginHint is "run `" + LoginCommand(s) + "`", the fix for a missing or
// rejected token.
func LoginHint(s *config.Settings) string { return "run `" + LoginCommand(s) + "`" }
