//go:build unix

package run

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// notifyResize delivers a value each time the terminal is resized
// (SIGWINCH), until ctx ends, so a watch redraws at once for the new
// width instead of at its next poll.
func notifyResize(ctx context.Context) <-chan os.Signal {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGWINCH)
	go func() {
		<-ctx.Done()
		signal.Stop(ch)
	}()
	return ch
}
