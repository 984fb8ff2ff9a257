// Command forge is the command-line client and terminal UI for the hosting
// service: git hosting and CI, the agent chat and the container registry.
package main

import (
	"os"

	"github.com/forgehq/forge/cmd"
)

func main() { os.Exit(cmd.Main()) }
