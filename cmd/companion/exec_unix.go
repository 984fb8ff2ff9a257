//go:build unix

package companion

import (
	"fmt"
	"os"
	"syscall"
)

// run replaces forge's process with the companion's: the same process ID,
// terminal, signals and exit code as if forge linked what it holds. The
// command line keeps forge's name as typed, so ps and pgrep -f still see
// `forge serve ...` and `forge mcp serve ...`.
func run(path string, args []string) error {
	err := syscall.Exec(path, append([]string{os.Args[0]}, args...), os.Environ())
	return fmt.Errorf("running %s: %w", path, err)
}
