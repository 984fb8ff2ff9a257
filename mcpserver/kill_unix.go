//go:build unix

package mcpserver

import (
	"os/exec"
	"syscall"
)

// killGroup makes cmd the leader of a process group of its own and has
// ctx's end kill the whole group: git's children (the HTTP helper, the
// pack indexer) go with it instead of running on.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
