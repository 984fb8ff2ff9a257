package mcp

import (
	"os"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/cmd/internal/rootcmd"
	"github.com/forgehq/forge/internal/iostreams"
)

// Main runs forge-mcp (cmd/forge-mcp, which sets Serve first) with the
// process's arguments and returns the exit code: forge's root, for its
// global flags, errors and exit codes, with the mcp commands alone; forge
// runs `forge-mcp mcp serve` with the flags given.
func Main() int {
	f := cmdutil.New(iostreams.System(), os.Getenv)
	return rootcmd.Main(&f.Globals, NewCmd(f))
}
