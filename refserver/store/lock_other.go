//go:build !unix

package store

// lockDir does not lock where flock(2) does not exist.
func lockDir(dir string) (func(), error) { return func() {}, nil }
