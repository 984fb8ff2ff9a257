// Package withserver is forge's command tree with the reference server
// linked in: the tree of forge-server (cmd/forge-server), where `serve`
// and `demo` run in-process rather than starting forge-server (package
// companion). Only forge-server and tests import it; forge never links it.
package withserver

import (
	"context"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/cmd"
	"github.com/forgehq/forge/cmd/demo"
	"github.com/forgehq/forge/cmd/serve"
	"github.com/spf13/cobra"
)

// NewRootCmd is cmd.NewRootCmd with serve and demo of its own.
func NewRootCmd(f *cmdutil.Factory) *cobra.Command { return NewTree(f, nil) }

// NewTree is the whole tree whatever the command line (forge-server runs
// once per server or demo, and the demo asks its tree whether `forge tui`
// exists), with serve and demo of its own. The demo runs its tour's
// commands with cmd.Run: they need no server of their own.
func NewTree(f *cmdutil.Factory, _ []string) *cobra.Command {
	root := cmd.NewRootCmd(f)
	for _, c := range []*cobra.Command{serve.NewCmd(f), demo.NewCmd(f, cmd.Run)} {
		if old, _, err := root.Find([]string{c.Name()}); err == nil && old != root {
			root.RemoveCommand(old)
		}
		root.AddCommand(c)
	}
	return root
}

// Main runs forge-server with the process's arguments and environment and
// returns the exit code.
func Main() int { return cmd.MainTree(NewTree) }

// Run is cmd.Run over this tree, for tests.
func Run(ctx context.Context, f *cmdutil.Factory, args []string) int {
	return cmd.RunTree(ctx, f, args, NewTree)
}
