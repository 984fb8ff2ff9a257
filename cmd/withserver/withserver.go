// Package withserver is forge's command tree as its users see it, with
// `serve` of its own rather than the stand-in that runs forge-server
// (package companion): the tree forge's reference documentation is made
// from (tools/gendocs), so that serve's page lists its flags. Only tools
// and tests import it; neither forge nor forge-server links it.
package withserver

import (
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/cmd"
	"github.com/forgehq/forge/cmd/serve"
	"github.com/spf13/cobra"
)

// NewRootCmd is cmd.NewRootCmd with serve of its own.
func NewRootCmd(f *cmdutil.Factory) *cobra.Command {
	root := cmd.NewRootCmd(f)
	c := serve.NewCmd(&f.Globals)
	if old, _, err := root.Find([]string{c.Name()}); err == nil && old != root {
		root.RemoveCommand(old)
	}
	root.AddCommand(c)
	return root
}
