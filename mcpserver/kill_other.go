//go:build !unix

package mcpserver

import "os/exec"

// killGroup: without process groups, ctx's end kills git alone;
// gitKillWait bounds the wait for its children's output.
func killGroup(*exec.Cmd) {}
