package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
)

// brokenPipe is the scripts' `brokenpipe CMD [ARGS...]`: CMD runs with
// stdout a pipe whose reading end is closed before it starts — a reader
// that has gone, as `| head -1` after its line, with no race on when it
// went — and this program's stdin and stderr. It exits with CMD's code,
// or 141 (128 + SIGPIPE, as a shell reports it) when a signal killed CMD,
// saying so on stderr.
func brokenPipe(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: brokenpipe CMD [ARGS...]")
		return 2
	}
	r, w, err := os.Pipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "brokenpipe:", err)
		return 1
	}
	r.Close()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, w, os.Stderr
	err = cmd.Run()
	w.Close()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee) && ee.ExitCode() == -1:
		fmt.Fprintf(os.Stderr, "brokenpipe: %s: %v\n", args[0], ee)
		return 141
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	fmt.Fprintln(os.Stderr, "brokenpipe:", err)
	return 1
}
