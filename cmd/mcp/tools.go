package mcp

import (
	"context"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/mcptools"
	"github.com/forgehq/forge/app/output"
	"github.com/spf13/cobra"
)

// newToolsCmd returns `forge mcp tools`: what `forge mcp serve` can offer.
type toolsOptions struct{ cmdutil.Deps }

func newToolsCmd(f *cmdutil.Factory, runF func(context.Context, *toolsOptions) error) *cobra.Command {
	opts := &toolsOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runTools)
	return &cobra.Command{
		Use:   "tools",
		Short: "List the tools `forge mcp serve` offers, by toolset",
		Long: `List every tool of ` + "`forge mcp serve`" + ` with its toolset. Tools marked write
change something on the service and are offered only with --allow-write.`,
		Example: `  forge mcp tools`,
		Args:    cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), opts)
		},
	}
}

func runTools(_ context.Context, opts *toolsOptions) error {
	t := output.NewTable(opts.IO, "TOOLSET", "TOOL", "ACCESS", "DESCRIPTION")
	for _, ti := range mcptools.All {
		access := "read"
		if ti.Write {
			access = "write"
		}
		t.Add(ti.Toolset)
		t.Add(ti.Name)
		t.Add(access)
		t.Add(ti.Description)
		t.EndRow()
	}
	return t.Render()
}
