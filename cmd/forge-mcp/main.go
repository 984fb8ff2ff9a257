// Command forge-mcp is forge with the MCP server linked in: `forge mcp
// serve` runs it (cmd/mcp), so that the MCP SDK's package initialisation
// is paid by the server alone, not by every forge command. It takes
// forge's whole command line; `forge-mcp mcp serve` is what forge runs.
package main

import (
	"os"

	"github.com/forgehq/forge/cmd"
	"github.com/forgehq/forge/cmd/mcp"
	"github.com/forgehq/forge/mcpserver"
)

func main() {
	mcp.Serve = mcpserver.Serve
	os.Exit(cmd.Main())
}
