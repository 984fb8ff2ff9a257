package demo

import (
	"os"
	"path/filepath"
)

// writeSite writes the directory the tour pushes as an image, as a user
// without docker would make one: dir/index.html and nothing else.
func writeSite(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "index.html"), []byte("Hello from forge demo!\n"), 0o644)
}
