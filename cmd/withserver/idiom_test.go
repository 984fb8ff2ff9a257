package withserver

import (
	"testing"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/cmd/internal/seamtest"
	"github.com/forgehq/forge/cmd/serve"
	"github.com/forgehq/forge/internal/iostreams"
)

// TestServeIsBuiltOneWay: the verb forge-server has of its own is built
// as every verb of forge's tree is (cmd's TestEveryVerbIsBuiltOneWay
// checks the rest, the demo among them), from forge-server's Globals
// instead of the Factory: its options embed cmdcore.Deps.
func TestServeIsBuiltOneWay(t *testing.T) {
	seamtest.CheckVerb(t, serve.Run, "forge serve")
}

// TestTreeHasServeOfItsOwn: the documented tree's serve is forge-server's,
// flags and all, and every other command is forge's.
func TestTreeHasServeOfItsOwn(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	root := NewRootCmd(cmdutil.New(ios, func(string) string { return "" }))
	c, _, err := root.Find([]string{"serve"})
	if err != nil || c.Flags().Lookup("admin-password") == nil || c.DisableFlagParsing {
		t.Errorf("serve: %v, flags parsed by forge-server: %v", err, c.DisableFlagParsing)
	}
	if c, _, err := root.Find([]string{"demo"}); err != nil || c.Name() != "demo" {
		t.Errorf("demo: %v", err)
	}
}
