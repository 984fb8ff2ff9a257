package demo_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// children are the IDs of the processes whose parent is pid, from /proc.
func children(t *testing.T, pid int) []int {
	t.Helper()
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil {
		t.Fatal(err)
	}
	var kids []int
	for _, s := range stats {
		b, err := os.ReadFile(s)
		if err != nil {
			continue // ended meanwhile
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		i := strings.LastIndexByte(string(b), ')')
		f := strings.Fields(string(b[i+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			id, _ := strconv.Atoi(filepath.Base(filepath.Dir(s)))
			kids = append(kids, id)
		}
	}
	return kids
}

// noChildren fails the test if this process has a child left: a demo run
// here must not leave its forge-server behind.
func noChildren(t *testing.T) {
	t.Helper()
	if kids := children(t, os.Getpid()); len(kids) != 0 {
		t.Errorf("processes left behind: %v", kids)
	}
}

// serverOf is the ID of the one child of the demo running as pid: its
// forge-server (0 where the tests cannot tell: not here).
func serverOf(t *testing.T, pid int) int {
	t.Helper()
	kids := children(t, pid)
	if len(kids) != 1 {
		t.Fatalf("the demo has children %v, want its server alone", kids)
	}
	return kids[0]
}

// gone says whether the process pid has ended (and been reaped).
func gone(pid int) bool { return unix.Kill(pid, 0) == unix.ESRCH }

// waitGone waits until the process pid, not a child of this one, ends:
// the kernel says so through a pidfd. The bound only ends a test that
// would otherwise hang.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	fd, err := unix.PidfdOpen(pid, 0)
	if err == unix.ESRCH {
		return
	}
	if err != nil {
		t.Skipf("pidfd_open: %v", err)
	}
	defer unix.Close(fd)
	n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, int(2*time.Minute/time.Millisecond))
	for err == unix.EINTR {
		n, err = unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, int(2*time.Minute/time.Millisecond))
	}
	if err != nil || n != 1 {
		t.Fatalf("process %d still runs (poll: %d, %v)", pid, n, err)
	}
}
