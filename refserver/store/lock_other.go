//go:build !unix

package store

// LockDir does not lock where flock(2) does not exist.
func LockDir(dir string) (func(), error) { return func() {}, nil }
