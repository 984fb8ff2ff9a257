//go:build unix

package companion

import (
	"fmt"
	"os"
	"syscall"
)

// run replaces forge's process with forge-server's: the same process ID,
// terminal, signals and exit code as when forge linked the server. The
// command line keeps forge's name as typed, so ps and pgrep -f still see
// `forge serve ...`.
func run(path string, args []string) error {
	err := syscall.Exec(path, append([]string{os.Args[0]}, args...), os.Environ())
	return fmt.Errorf("running %s: %w", path, err)
}
