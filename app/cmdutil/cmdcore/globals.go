// Package cmdcore is what every forge command shares that needs none of
// the service: the error types and the one place where errors become exit
// codes, the argument and flag helpers, the runF seam (Seam), and Globals,
// the streams, environment and global flags forge's root command works
// with. Package cmdutil builds the service's clients on top of it (its
// Factory embeds Globals); forge-server, which has no client, links this
// package and not cmdutil (docs/DESIGN.md, "Start-up cost").
package cmdcore

import "github.com/forgehq/forge/internal/iostreams"

// Globals are what forge's root command works with (cmd/internal/rootcmd):
// the streams, the environment, and the values of the global flags
// --profile and --debug. cmdutil's Factory embeds them; forge-server's
// serve, which uses no client, is built from them alone.
type Globals struct {
	IOStreams *iostreams.IOStreams
	Getenv    func(string) string

	// ProfileFlag and DebugFlag are bound to the global --profile and
	// --debug flags.
	ProfileFlag string
	DebugFlag   bool
}

// Deps are what a command built from Globals alone uses (forge-server's
// serve): its options embed them, as the options of forge's commands
// embed cmdutil.Deps, which hold these two as well.
type Deps struct {
	IO     *iostreams.IOStreams
	Getenv func(string) string
}

// Deps are g's streams and environment for one command, read when it is
// built (tests set them before).
func (g *Globals) Deps() Deps { return Deps{IO: g.IOStreams, Getenv: g.Getenv} }
