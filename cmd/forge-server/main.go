// Command forge-server is the reference server of `forge serve`, which
// forge runs (package companion), as `forge demo` does for its tour: the
// reference server (go-git, openpgp, jwt, otp) is linked here only, so its
// size and package initialisation are paid by the server alone. It holds
// forge's root (its global flags, errors and exit codes) and the `serve`
// command only (serve.Main); forge's other commands are not linked
// (bench/README.md, "Companions decided again"). Releases and packages
// install it beside forge.
package main

import (
	"os"

	"github.com/forgehq/forge/cmd/serve"
)

func main() { os.Exit(serve.Main()) }
