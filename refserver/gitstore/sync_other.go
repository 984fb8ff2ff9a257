//go:build !linux

package gitstore

// syncTree is a no-op where syncfs(2) does not exist: writes survive a
// crash of the server, not of the machine.
func syncTree(dir string) error { return nil }
