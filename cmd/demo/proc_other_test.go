//go:build !linux

package demo_test

import "testing"

// Without /proc the tests cannot see the demo's server process: the
// checks of it are Linux's.
func noChildren(*testing.T)        {}
func serverOf(*testing.T, int) int { return 0 }
func gone(int) bool                { return true }
func waitGone(*testing.T, int)     {}
