package demo_test

import (
	"context"
	"strings"
	"testing"

	"github.com/forgehq/forge/cmd"
	"github.com/forgehq/forge/cmd/demo"
)

// TestDemoSaysWhyItsServerDidNotStart: a forge-server that ends before it
// serves (here refusing the demo's --ci-tick) makes the demo fail with
// what the server said, in one line.
func TestDemoSaysWhyItsServerDidNotStart(t *testing.T) {
	opts, _, _, _ := fastDemo(t, cmd.Run)
	opts.CITick = 0
	err := demo.Run(context.Background(), opts)
	if err == nil || !strings.Contains(err.Error(), "ended before it served") || !strings.Contains(err.Error(), "--ci-tick must be positive") || strings.Contains(err.Error(), "\n") {
		t.Errorf("demo with a server that cannot start: %v", err)
	}
}
