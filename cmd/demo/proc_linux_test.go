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

// servers are the IDs of the demo's servers among pid's children, from
// /proc: forge-server serve with the demo's --until-stdin-eof (a step may
// have a child of its own meanwhile, as the keyring's dbus-launch).
func servers(t *testing.T, pid int) []int {
	t.Helper()
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil {
		t.Fatal(err)
	}
	var found []int
	for _, s := range stats {
		b, err := os.ReadFile(s)
		if err != nil {
			continue // ended meanwhile
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		i := strings.LastIndexByte(string(b), ')')
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 2 || f[1] != strconv.Itoa(pid) {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join(filepath.Dir(s), "cmdline"))
		if strings.Contains(string(cmdline), "\x00serve\x00") && strings.Contains(string(cmdline), "\x00--until-stdin-eof") {
			id, _ := strconv.Atoi(filepath.Base(filepath.Dir(s)))
			found = append(found, id)
		}
	}
	return found
}

// noChildren fails the test if a demo run in this process left its
// forge-server behind.
func noChildren(t *testing.T) {
	t.Helper()
	if left := servers(t, os.Getpid()); len(left) != 0 {
		t.Errorf("the demo's server left behind: processes %v", left)
	}
}

// serverOf is the ID of the server of the demo running as pid.
func serverOf(t *testing.T, pid int) int {
	t.Helper()
	found := servers(t, pid)
	if len(found) != 1 {
		t.Fatalf("the demo has servers %v, want one", found)
	}
	return found[0]
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
