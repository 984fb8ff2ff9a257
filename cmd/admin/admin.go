// Package admin implements `forge admin`: invitations and the accounts an
// administrator manages (customer_admin and site_admin roles).
package admin

import (
	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/spf13/cobra"
)

// NewCmd returns `forge admin` and its subcommands.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:   "admin <command>",
		Short: "Invite people and administer accounts (admin roles)",
		Example: `  forge admin invite create bob --email bob@example.com --role user
  forge admin user list
  forge admin user disable bob`,
		Long: `Administer the service: invite people, and list, disable, enable or delete
the accounts you manage. These commands need the customer_admin or
site_admin role; the service answers others with 403 (exit 1).`,
	})
	invite := cmdutil.Group(&cobra.Command{
		Use:   "invite <command>",
		Short: "List and create invitations",
		Example: `  forge admin invite list
  forge admin invite create bob --email bob@example.com --role user`,
	})
	invite.AddCommand(newInviteListCmd(f), newInviteCreateCmd(f))
	user := cmdutil.Group(&cobra.Command{
		Use:   "user <command>",
		Short: "List, disable, enable and delete accounts",
		Example: `  forge admin user list
  forge admin user disable bob
  forge admin user enable bob`,
	})
	user.AddCommand(newUserListCmd(f), newUserDisableCmd(f), newUserEnableCmd(f), newUserDeleteCmd(f))
	cmd.AddCommand(invite, user)
	return cmd
}

// roles are the roles the service knows, in the order of their power.
var roles = []string{"user", "customer_admin", "site_admin"}
