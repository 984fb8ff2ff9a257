//go:build unix

package companion

import (
	"fmt"
	"os"
	"syscall"
)

// run replaces forge's process with forge-server's: the same process ID,
// terminal, signals and exit code as when forge linked the server.
func run(path string, args []string) error {
	err := syscall.Exec(path, append([]string{path}, args...), os.Environ())
	return fmt.Errorf("running %s: %w", path, err)
}
