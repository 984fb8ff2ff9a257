package gitremote

import (
	"context"
	"os"
	"os/exec"

	"github.com/forgehq/forge/internal/text"
)

// Git runs the git binary for one forge command against the service, with
// forge's login for the service's origin and nothing else changed: the
// user's git configuration is neither read for that origin's credentials
// nor written.
type Git struct {
	// Origin is the service's scheme://host[:port]; "" gives git no
	// credentials of forge's (no token, or nothing to give them for).
	Origin string
	// Profile pins the helper to a profile ("" for the usual resolution,
	// which the helper, seeing the same environment and configuration
	// file, repeats).
	Profile string
	// NoPrompt makes git fail rather than wait for a password nobody can
	// type (no terminal, as in CI).
	NoPrompt bool
}

// Command is git with args. For Origin, git's list of credential helpers
// is reset and forge's own (HelperCommand) is the only one:
//
//	git -c credential.ORIGIN.helper= -c 'credential.ORIGIN.helper=!/path/to/forge auth git-credential' ARGS
//
// Why this way: the token never travels in git's arguments (ps shows
// them), its environment (inherited by hooks, ssh and every other child)
// or the remote's URL (stored in .git/config); git gets it on the pipe of
// the helper it runs, the way a `forge auth setup-git` user's git does.
// The empty entry first keeps the user's own helpers for that origin
// from being asked (a stale password) or told to store the token (the
// "store" helper writes it in plain text). The entries are scoped to
// Origin, so a remote on another host keeps the user's configuration and
// never sees forge's token; the helper itself also answers only for the
// host of a profile's base URL. Options given with -c on git's command
// line are read last, so they hold whatever the user configured, and
// they last for this one git process.
func (g Git) Command(ctx context.Context, args ...string) *exec.Cmd {
	var pre []string
	if g.Origin != "" {
		key := "credential." + g.Origin + ".helper"
		pre = []string{"-c", key + "=", "-c", key + "=!" + HelperCommand(g.Profile)}
	}
	cmd := exec.CommandContext(ctx, "git", append(pre, args...)...)
	if g.NoPrompt {
		cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	}
	return cmd
}

// HelperCommand is how git's shell should start forge's credential helper:
// by this executable's absolute path, quoted (a bare "forge" fails
// wherever forge is not on PATH), or "forge" when the path cannot be
// found; pinned to profile when it is not "".
func HelperCommand(profile string) string {
	cmd := "forge"
	if exe, err := os.Executable(); err == nil {
		cmd = text.ShellQuote(exe)
	}
	if profile != "" {
		cmd += " --profile " + text.ShellQuote(profile)
	}
	return cmd + " auth git-credential"
}
