// Package ctxlimit is the --context-limit flag of the commands that attach
// context for the agent (chat, and run explain, view and watch with
// --explain): a cap in tokens taken from the flag, else from the profile's
// chat_context_limit, else chat.DefaultContextLimit.
package ctxlimit

import (
	"github.com/forgehq/forge/app/agentctx"
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/chat"
	"github.com/spf13/cobra"
)

// Flag is --context-limit.
type Flag struct {
	n   int
	set bool // given on the command line
}

// Add defines the flag on cmd; what names what it caps, for the help.
func (l *Flag) Add(cmd *cobra.Command, what string) {
	cmd.Flags().IntVar(&l.n, "context-limit", chat.DefaultContextLimit,
		"Cap "+what+" at `N` tokens (also the profile's "+agentctx.LimitKey+")")
}

// Check notes whether the flag was given, and refuses a cap below one
// token (exit 2) before anything is sent.
func (l *Flag) Check(cmd *cobra.Command) error {
	l.set = cmd.Flags().Changed("context-limit")
	if l.set && l.n < 1 {
		return cmdcore.UsageErrorf("--context-limit must be a positive number of tokens, not %d", l.n)
	}
	return nil
}

// Tokens is the cap: the flag's, else the profile's setting, else the
// default. A bad setting in the config file is a usage error naming it.
func (l *Flag) Tokens(src cmdutil.DepsSource) (int, error) {
	if l.set {
		return l.n, nil
	}
	d := src.Deps()
	s, err := d.Settings()
	if err != nil {
		return 0, err
	}
	cf, err := d.ConfigFile()
	if err != nil {
		return 0, err
	}
	n, err := agentctx.ProfileLimit(cf, s.Profile)
	if err != nil {
		return 0, &cmdcore.UsageError{Err: err}
	}
	return n, nil
}
