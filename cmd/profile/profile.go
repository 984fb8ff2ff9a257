// Package profile implements `forge profile`: the named deployments of the
// service (production, dev, ...) that forge can talk to.
package profile

import (
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/spf13/cobra"
)

// NewCmd returns `forge profile` and its subcommands.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdcore.Group(&cobra.Command{
		Use:   "profile <command>",
		Short: "Manage configuration profiles (production, dev, ...)",
		Example: `  forge profile add dev --base-url http://127.0.0.1:8080/api/v2
  forge profile use dev
  forge profile list`,
		Long: `A profile names one deployment of the service — its REST, agent and
registry addresses — and the credentials forge holds for it. The current
profile is used unless --profile or FORGE_PROFILE names another.`,
	})
	cmd.AddCommand(newListCmd(f, nil), newShowCmd(f, nil), newUseCmd(f, nil), newAddCmd(f, nil), newRemoveCmd(f, nil))
	return cmd
}

// completeNames offers profile names for completion.
func completeNames(f *cmdutil.Factory) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		cf, err := f.ConfigFile()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return cf.ProfileNames(), cobra.ShellCompDirectiveNoFileComp
	}
}
