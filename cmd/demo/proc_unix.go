//go:build unix

package demo

import (
	"errors"
	"os/exec"
	"syscall"
)

// alive reports whether a process with this ID exists (signal 0 checks
// without sending; EPERM means it exists under another user).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// detach puts the server in a process group of its own: Ctrl-C on the
// terminal is the demo's to handle (it stops the step, then the server),
// so a step never meets a server that stopped first.
func detach(c *exec.Cmd) { c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }
