// Package auth implements `forge auth`: logging in and out of the service,
// two-factor authentication, the stored token, and credentials for git,
// docker-style tools and the agent.
package auth

import (
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/spf13/cobra"
)

// NewCmd returns `forge auth` and its subcommands.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:   "auth <command>",
		Short: "Log in, log out and manage credentials",
		Example: `  forge auth login --base-url https://forge.example.com/api/v2
  forge auth status
  forge auth 2fa setup
  forge auth logout`,
	})
	// Each subcommand lives in a file of its own in this package.
	for _, sub := range subcommands {
		cmd.AddCommand(sub(f))
	}
	return cmd
}

// subcommands are registered by the files of this package in their init,
// so parts of `forge auth` added side by side never edit the same lines.
var subcommands []func(*cmdutil.Factory) *cobra.Command

func register(sub func(*cmdutil.Factory) *cobra.Command) {
	subcommands = append(subcommands, sub)
}
