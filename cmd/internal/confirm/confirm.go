// Package confirm holds the questions forge asks before it deletes
// something for good, so every delete command asks, refuses and reports
// in the same words.
package confirm

import (
	"context"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/text"
)

// Possible refuses to go on when there is no terminal to ask on and
// --yes was not given: a script must say yes itself, never be asked.
func Possible(ios *iostreams.IOStreams, yes bool, what string) error {
	if !yes && !ios.CanPrompt() {
		return cmdcore.UsageErrorf("pass --yes to delete %s without a prompt", what)
	}
	return nil
}

// Typed asks the user to type name again, for deletions that cannot be
// undone: anything but name (surrounding spaces aside) deletes nothing
// and ends the command with exit 1.
func Typed(ctx context.Context, src cmdutil.DepsSource, name string) error {
	d := src.Deps()
	typed, err := d.Prompter.Input(ctx, "Type "+text.OneLine(name)+" to confirm", "")
	if err != nil {
		return err
	}
	if strings.TrimSpace(typed) != name {
		d.IO.ErrPrintf("%q does not match %s; nothing deleted.\n", typed, text.OneLine(name))
		return cmdcore.ErrSilent
	}
	return nil
}

// YesNo asks question with no as the default: anything but yes deletes
// nothing and ends the command with exit 1.
func YesNo(ctx context.Context, src cmdutil.DepsSource, question string) error {
	d := src.Deps()
	ok, err := d.Prompter.Confirm(ctx, question, false)
	if err != nil {
		return err
	}
	if !ok {
		d.IO.ErrPrintln("Nothing deleted.")
		return cmdcore.ErrSilent
	}
	return nil
}
