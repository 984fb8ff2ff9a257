//go:build unix

package config

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// lock takes an exclusive advisory lock for the configuration file at
// path. It locks the directory holding it, which exists already, so no
// lock file is left behind by a command that in the end wrote nothing (a
// failed login, an unknown profile).
func lock(path string) (func(), error) {
	f, err := os.Open(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = unix.Flock(int(f.Fd()), unix.LOCK_UN)
		f.Close()
	}, nil
}
