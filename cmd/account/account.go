// Package account implements `forge account`: the caller's own profile
// and password.
package account

import (
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/spf13/cobra"
)

// NewCmd returns `forge account` and its subcommands.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdcore.Group(&cobra.Command{
		Use:   "account <command>",
		Short: "View and edit your account: profile and password",
		Example: `  forge account view
  forge account edit --location Lyon
  forge account password`,
		Long: `Your own account on the service. Two-factor authentication is under
` + "`forge auth 2fa`" + `, SSH keys under ` + "`forge ssh-key`" + `.`,
	})
	cmd.AddCommand(newViewCmd(f, nil), newEditCmd(f, nil), newPasswordCmd(f, nil))
	return cmd
}
