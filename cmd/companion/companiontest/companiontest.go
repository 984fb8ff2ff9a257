// Package companiontest installs a test binary as forge and its
// companions, for tests that run forge as users do (its TestMain picks
// the part to play by the name os.Executable gives).
package companiontest

import (
	"os"
	"path/filepath"
	"testing"
)

// Install puts the test binary in a new directory under each of names
// ("forge", "forge-server", ...), as packages install them side by side,
// and returns the directory. The copies are hard links where possible:
// a symbolic link would make os.Executable name the test binary.
func Install(t testing.TB, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range names {
		if err := os.Link(os.Args[0], filepath.Join(dir, name)); err != nil {
			b, err := os.ReadFile(os.Args[0])
			if err == nil {
				err = os.WriteFile(filepath.Join(dir, name), b, 0o755)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}
