// Command gendocs regenerates forge's man pages and markdown command
// reference under docs/ from the command tree (forge-server's, so `serve` and
// `demo` are documented with their flags as forge users type them):
//
//	go run ./tools/gendocs [-dir docs]
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/cmd/withserver"
	"github.com/forgehq/forge/internal/docgen"
	"github.com/forgehq/forge/internal/iostreams"
)

func main() {
	dir := flag.String("dir", "docs", "write man/ and reference/ under `DIR`")
	flag.Parse()
	// No environment and no terminal: the pages must not depend on the
	// machine they are made on.
	ios, _, _, _ := iostreams.Test()
	root := withserver.NewRootCmd(cmdutil.New(ios, func(string) string { return "" }))
	if err := docgen.Generate(root, *dir); err != nil {
		fmt.Fprintf(os.Stderr, "gendocs: %v\n", err)
		os.Exit(1)
	}
}
