// Package auth implements `forge auth`: logging in and out of the service,
// two-factor authentication, the stored token, and credentials for git,
// docker-style tools and the agent.
package auth

import (
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/spf13/cobra"
)

// NewCmd returns `forge auth` and its subcommands.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdcore.Group(&cobra.Command{
		Use:   "auth <command>",
		Short: "Log in, log out and manage credentials",
		Example: `  forge auth login --base-url https://forge.example.com/api/v2
  forge auth status
  forge auth 2fa setup
  forge auth logout`,
	})
	cmd.AddCommand(
		newAgentKeyCmd(f),
		newDockerCredCmd(f),
		newGitCredentialCmd(f, nil),
		newLoginCmd(f, nil),
		newLogoutCmd(f, nil),
		newSetupGitCmd(f, nil),
		newStatusCmd(f, nil),
		newTokenCmd(f, nil),
		newTwoFACmd(f),
	)
	return cmd
}
