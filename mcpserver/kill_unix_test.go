//go:build unix

package mcpserver

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestStoppedGitDoesNotHang: a git stopped (the fetch's deadline, or the
// clone's bound) whose child still holds its stderr — git's HTTP helper
// waiting on a server that sends nothing — does not keep the tool
// waiting: the child is killed with git. Before, the call waited for the
// child (here, for ever).
func TestStoppedGitDoesNotHang(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "started")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	g := &gitClone{dir: dir}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	child := make(chan int, 1)
	go func() {
		// The child's PID once it has written it: read whole, so that it
		// goes on (a write to a pipe closed early would kill it).
		var pid int
		if f, err := os.Open(fifo); err == nil {
			b, _ := io.ReadAll(f)
			f.Close()
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
		child <- pid
		cancel()
	}()
	_, err := g.git(ctx, "-c", "alias.hang=!echo $$ >"+fifo+"; exec sleep 100000", "hang")
	if pid := <-child; pid > 0 {
		defer syscall.Kill(pid, syscall.SIGKILL) // if the test fails: the child is this test's
	}
	if err == nil {
		t.Fatal("a killed git succeeded")
	}
}
