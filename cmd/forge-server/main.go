// Command forge-server is forge with the reference server linked in: the
// companion forge runs for `forge serve` and `forge demo` (package
// cmd/companion). Releases and packages install it beside forge.
package main

import (
	"os"

	"github.com/forgehq/forge/cmd/withserver"
)

func main() { os.Exit(withserver.Main()) }
