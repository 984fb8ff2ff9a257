package cmdcore

import (
	"reflect"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
)

// ExactArgs is cobra.ExactArgs with a usage error that says what is missing.
func ExactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch {
		case len(args) < n:
			return UsageErrorf("missing %s; see `%s --help`", what, cmd.CommandPath())
		case len(args) > n:
			return UsageErrorf("unexpected argument %q; %s takes %s", args[n], cmd.CommandPath(), what)
		}
		return nil
	}
}

// Operands requires one argument for each name, in order, and says
// exactly which are missing: `image pull app:1.0` is "missing DEST", not
// "missing REF and DEST".
func Operands(names ...string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch {
		case len(args) < len(names):
			return UsageErrorf("missing %s; see `%s --help`", strings.Join(names[len(args):], " and "), cmd.CommandPath())
		case len(args) > len(names):
			return UsageErrorf("unexpected argument %q; %s takes %s", args[len(names)], cmd.CommandPath(), strings.Join(names, " and "))
		}
		return nil
	}
}

// MaximumArgs allows up to n arguments.
func MaximumArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > n {
			return UsageErrorf("unexpected argument %q; %s takes %s", args[n], cmd.CommandPath(), what)
		}
		return nil
	}
}

// NoArgs refuses positional arguments.
func NoArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return UsageErrorf("unexpected argument %q; see `%s --help`", args[0], cmd.CommandPath())
	}
	return nil
}

// GroupArgs is the Args of a command that only holds subcommands: an unknown
// word is a usage error instead of a silently printed help text.
func GroupArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return unknownCommand(cmd, args[0])
	}
	return nil
}

// unknownCommand is the usage error for a word that is none of group's
// subcommands, naming the nearest one when there is one (`forge issue lst`).
func unknownCommand(group *cobra.Command, word string) error {
	path := group.CommandPath()
	if group.SuggestionsMinimumDistance <= 0 {
		group.SuggestionsMinimumDistance = 2 // cobra's default, set only when cobra suggests
	}
	if s := group.SuggestionsFor(word); len(s) > 0 {
		return UsageErrorf("unknown command %q for %q; did you mean `%s %s`?", word, path, path, s[0])
	}
	return UsageErrorf("unknown command %q for %q; see `%s --help`", word, path, path)
}

// IsGroup reports whether cmd only holds subcommands (its Args is GroupArgs).
func IsGroup(cmd *cobra.Command) bool {
	return cmd.Args != nil && reflect.ValueOf(cmd.Args).Pointer() == reflect.ValueOf(GroupArgs).Pointer()
}

// GroupFlagError is the error for a flag that did not parse on a group.
// Cobra parses the flags of the deepest command it found, so `forge release
// view v1.0.0 -R x/y` fails on -R when the real mistake is `view`: a word
// before the bad flag that names no subcommand is reported first. It
// returns nil when that is not the case.
func GroupFlagError(cmd *cobra.Command) error {
	if !IsGroup(cmd) || cmd.Flags().NArg() == 0 {
		return nil
	}
	return unknownCommand(cmd, cmd.Flags().Arg(0))
}

// ParseNumber parses an issue, pull request, run or job number given as an
// argument; anything but a positive integer is a usage error.
func ParseNumber(arg, what string) (int64, error) {
	n, err := strconv.ParseInt(arg, 10, 64)
	if err != nil || n <= 0 {
		return 0, UsageErrorf("%s must be a positive integer, not %q", what, arg)
	}
	return n, nil
}

// Group makes cmd a command that only holds subcommands: bare, it prints
// its help; followed by an unknown word, it is a usage error (exit 2).
func Group(cmd *cobra.Command) *cobra.Command {
	cmd.Args = GroupArgs
	cmd.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
	return cmd
}
