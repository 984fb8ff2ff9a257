package cmdutil

import (
	"strings"

	"github.com/forgehq/forge/config"
)

// WarnEnvUser says on stderr, before a command acts, when FORGE_USERNAME
// names another user than the one logged in with the active profile: a
// sourced env file (an admin's, a CI job's) must not turn alice into
// someone else without a word. acting says what the command is about to
// does, as in "logging in" (… as USER). It says so once per command.
func (f *Factory) WarnEnvUser(acting string) {
	env := strings.TrimSpace(f.Getenv("FORGE_USERNAME"))
	if env == "" {
		return
	}
	s, err := f.Settings()
	if err != nil || s.User == "" || s.Sources["user"] != config.FromFile || strings.EqualFold(s.User, env) {
		return
	}
	f.mu.Lock()
	warned := f.warnedEnvUser
	f.warnedEnvUser = true
	f.mu.Unlock()
	if warned {
		return
	}
	cs := f.IOStreams.ErrColorScheme()
	f.IOStreams.ErrPrintf("%s FORGE_USERNAME=%s is not %s, the user of profile %s: %s as %s (unset FORGE_USERNAME and FORGE_PASSWORD to act as %s)\n",
		cs.WarningIcon(), env, s.User, s.Profile, acting, env, s.User)
}
