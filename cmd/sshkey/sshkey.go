// Package sshkey implements `forge ssh-key`: the public keys that let you
// use git over SSH.
package sshkey

import (
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/spf13/cobra"
)

// NewCmd returns `forge ssh-key` and its subcommands.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdcore.Group(&cobra.Command{
		Use:   "ssh-key <command>",
		Short: "Manage the SSH public keys of your account",
		Example: `  forge ssh-key list
  forge ssh-key add ~/.ssh/id_ed25519.pub --title laptop
  forge ssh-key delete 3`,
	})
	cmd.AddCommand(newListCmd(f, nil), newAddCmd(f, nil), newDeleteCmd(f, nil))
	return cmd
}
