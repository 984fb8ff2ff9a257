package demo

import (
	"context"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/forgehq/forge/app/cmdutil"
)

// dirPattern names the demo's directory under the system's temporary
// directory: /tmp/forge-demo-123456. It holds a configuration with a
// logged-in token, so no exit path may leave it behind.
const dirPattern = "forge-demo-"

// ownerFile, in the demo's directory, holds the process ID of the forge
// that made it, for removeStale.
const ownerFile = "forge-demo.pid"

// removeOnSignal takes SIGINT, SIGTERM and SIGHUP for as long as the
// demo's directory exists. forge's root stops a command on the first
// SIGINT or SIGTERM and lets a second one kill it at once, and SIGHUP (the
// terminal closed) kills it outright: either way the deferred removal
// would not run. Here the first signal cancels the tour, which then removes
// the directory on its way out; another one removes it and exits 130 at
// once, keeping the "a second Ctrl-C ends it now" promise. stop ends the
// handling.
func removeOnSignal(ctx context.Context, dir string) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		for n := 0; ; n++ {
			select {
			case <-ch:
				if n == 0 {
					cancel()
					continue
				}
				os.RemoveAll(dir)
				os.Exit(cmdutil.ExitInterrupted)
			case <-done:
				return
			}
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel()
	}
}

// markOwner writes this process's ID into the demo's directory.
func markOwner(dir string) {
	_ = os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(os.Getpid())+"\n"), 0o600)
}

// removeStale removes the directories of earlier demos whose forge is gone
// without removing its own: killed with SIGKILL, or the machine stopped.
// A directory without an owner file is left alone (its demo may be making
// it right now), as is one whose owner still runs.
func removeStale(tmp string) {
	dirs, _ := filepath.Glob(filepath.Join(tmp, dirPattern+"*"))
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, ownerFile))
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 0 || alive(pid) {
			continue
		}
		os.RemoveAll(d)
	}
}
