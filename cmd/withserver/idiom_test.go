package withserver

import (
	"testing"

	"github.com/forgehq/forge/cmd/internal/seamtest"
)

// TestServeAndDemoAreBuiltOneWay: the verbs forge-server has of its own
// are built as every verb of forge's tree is (cmd's
// TestEveryVerbIsBuiltOneWay checks the rest).
func TestServeAndDemoAreBuiltOneWay(t *testing.T) {
	for _, path := range []string{"forge serve", "forge demo"} {
		t.Run(path, func(t *testing.T) { seamtest.CheckVerb(t, Run, path) })
	}
}
