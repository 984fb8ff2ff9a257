package gitstore

import (
	"os"

	"golang.org/x/sys/unix"
)

// syncTree flushes the filesystem holding dir: go-git writes objects and
// refs without fsync, and a push or commit is acknowledged only once it
// is on disk.
func syncTree(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return unix.Syncfs(int(f.Fd()))
}
