package demo

import (
	"context"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
)

// dirPattern names the demo's directory under the system's temporary
// directory: /tmp/forge-demo-123456. It holds a configuration with a
// logged-in token, so no exit path may leave it behind.
const dirPattern = "forge-demo-"

// ownerFile, in the demo's directory, holds the process ID of the forge
// that made it, for removeStale.
const ownerFile = "forge-demo.pid"

// leftovers are what the demo must not leave behind however it ends: its
// directory (a logged-in configuration) and its server process. remove
// may be called from the signal handler while the tour's own deferred
// call runs: each is removed once.
type leftovers struct {
	dir string
	mu  sync.Mutex
	srv *server
}

func (l *leftovers) setServer(s *server) {
	l.mu.Lock()
	l.srv = s
	l.mu.Unlock()
}

// remove stops the server (its stop waits for it to be gone) and removes
// the directory.
func (l *leftovers) remove() {
	l.mu.Lock()
	srv := l.srv
	l.mu.Unlock()
	if srv != nil {
		srv.stop()
	}
	os.RemoveAll(l.dir)
}

// removeOnSignal takes SIGINT, SIGTERM and SIGHUP for as long as the
// demo's leftovers exist. forge's root stops a command on the first
// SIGINT or SIGTERM and lets a second one kill it at once, and SIGHUP (the
// terminal closed) kills it outright: either way the deferred removal
// would not run. Here the first signal cancels the tour, which then removes
// them on its way out; another one removes them and exits 130 at once,
// keeping the "a second Ctrl-C ends it now" promise. stop ends the
// handling.
func removeOnSignal(ctx context.Context, left *leftovers) (context.Context, func()) {
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
				left.remove()
				os.Exit(cmdcore.ExitInterrupted)
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
