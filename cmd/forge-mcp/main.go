// Command forge-mcp is the MCP server of `forge mcp serve`, which forge
// runs (cmd/mcp, package companion) so that the MCP SDK's package
// initialisation is paid by the server alone, not by every forge command.
// It holds forge's root (its global flags, errors and exit codes) and the
// `mcp` commands only (mcp.Main): forge parses `mcp serve`'s flags itself
// and runs `forge-mcp mcp serve` with those given; forge's other commands,
// the terminal UI among them, are not linked (bench/README.md,
// "Companions decided again").
package main

import (
	"os"

	"github.com/forgehq/forge/cmd/mcp"
	"github.com/forgehq/forge/mcpserver"
)

func main() {
	mcp.Serve = mcpserver.Serve
	os.Exit(mcp.Main())
}
