// Package admin implements `forge admin`: invitations and the accounts an
// administrator manages (customer_admin and site_admin roles).
package admin

import (
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/spf13/cobra"
)

// NewCmd returns `forge admin` and its subcommands.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdcore.Group(&cobra.Command{
		Use:   "admin <command>",
		Short: "Invite people and administer accounts (admin roles)",
		Example: `  forge admin invite create bob --email bob@example.com --role user
  forge admin user list
  forge admin user disable bob`,
		Long: `Administer the service: invite people, and list, disable, enable or delete
the accounts you manage. These commands need the customer_admin or
site_admin role; the service answers others with 403 (exit 1).`,
	})
	cmd.AddCommand(newInviteCmd(f), newUserCmd(f))
	return cmd
}

// roles are the roles the service knows, in the order of their power.
var roles = []string{"user", "customer_admin", "site_admin"}
