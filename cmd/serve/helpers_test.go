package serve

import (
	"context"
	"testing"
	"time"

	"github.com/forgehq/forge/refserver"
)

// serving runs `forge serve` with opts until stop, which is Ctrl-C: it
// returns the server once it listens, and stop returns what serve did.
func serving(t *testing.T, opts *Options) (srv *refserver.Server, stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan *refserver.Server, 1)
	opts.ready = func(s *refserver.Server) { ready <- s }
	done := make(chan error, 1)
	go func() { done <- runServe(ctx, opts) }()
	stop = func() error {
		cancel()
		return <-done
	}
	select {
	case srv = <-ready:
	case err := <-done:
		cancel()
		t.Fatalf("serve ended early: %v", err)
	case <-time.After(60 * time.Second):
		t.Cleanup(func() { stop() })
		t.Fatal("serve did not start")
	}
	return srv, stop
}
