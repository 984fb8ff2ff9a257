//go:build !unix

package refserver

// openFileLimit is unknown here: MaxConns is taken as given.
func openFileLimit() int { return 0 }
