// Package mcp implements `forge mcp`: the hosting service as Model Context
// Protocol tools for AI coding assistants (mcpserver), and the
// snippets that connect an assistant to them.
package mcp

import (
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/spf13/cobra"
)

// NewCmd returns `forge mcp` and its subcommands.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdcore.Group(&cobra.Command{
		Use:   "mcp <command>",
		Short: "Serve the hosting service to AI coding assistants (Model Context Protocol)",
		Example: `  forge mcp config --client claude
  forge mcp serve --toolsets issues,actions
  forge mcp tools`,
	})
	cmd.AddCommand(newServeCmd(f, nil), newConfigCmd(f, nil), newToolsCmd(f, nil))
	return cmd
}
