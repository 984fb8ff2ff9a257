// Package seamtest checks how a command reads its flags and arguments,
// through gh's runF seam: the command is built with a run function that
// only keeps the options it is given (Capture); and that every verb of a
// tree is built with that seam (Verbs, CheckVerb).
package seamtest

import (
	"context"
	"testing"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/spf13/cobra"
)

// Capture builds the command with newCmd over a Factory of test streams
// and an empty environment, runs it with args, and returns the options
// its runF received: nil when parsing (or a check before runF) failed,
// with that error.
func Capture[T any](t testing.TB, newCmd func(*cmdutil.Factory, func(context.Context, *T) error) *cobra.Command, args ...string) (*T, error) {
	t.Helper()
	ios, _, _, _ := iostreams.Test()
	var got *T
	cmd := newCmd(cmdutil.New(ios, func(string) string { return "" }), func(_ context.Context, o *T) error {
		got = o
		return nil
	})
	cmd.SetArgs(args)
	cmd.SetOut(ios.ErrOut)
	cmd.SetErr(ios.ErrOut)
	return got, cmd.Execute()
}
