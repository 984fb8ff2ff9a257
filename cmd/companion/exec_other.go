//go:build !unix

package companion

import (
	"errors"
	"fmt"
	"os"
	"os/exec"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
)

// run runs the companion as forge's child, on forge's own streams, and ends
// forge with its exit code: a process cannot be replaced here. Ctrl-C
// reaches both, as they share the console; forge waits for the child.
func run(path string, args []string) error {
	c := exec.Command(path, args...)
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := c.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return &cmdcore.ExitError{Code: exit.ExitCode()}
	}
	if err != nil {
		return fmt.Errorf("running %s: %w", path, err)
	}
	return nil
}
