package cmdcore

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// FlagError is a flag that did not parse, as one line naming what the flag
// takes: `--private takes true or false, not "maybe"`, where pflag would
// say `strconv.ParseBool: parsing "maybe": invalid syntax`. Other errors
// pass through.
func FlagError(err error) error {
	var iv *pflag.InvalidValueError
	if !errors.As(err, &iv) {
		return err
	}
	fl := iv.GetFlag()
	switch fl.Value.(type) {
	case *enumValue, *pathValue:
		return UsageErrorf("--%s %v", fl.Name, errors.Unwrap(iv))
	}
	var takes string
	switch fl.Value.Type() {
	case "bool":
		takes = "true or false"
	case "int", "int64", "int32", "uint", "uint64":
		takes = "a whole number"
	case "duration":
		takes = "a duration such as 30s or 2m"
	case "float64", "float32":
		takes = "a number"
	default:
		var cause string
		if u := errors.Unwrap(iv); u != nil {
			cause = u.Error()
		}
		return UsageErrorf("--%s: %s", fl.Name, cause)
	}
	return UsageErrorf("--%s takes %s, not %q", fl.Name, takes, iv.GetValue())
}

// enumValue is a string flag that takes one of a fixed set of values.
type enumValue struct {
	p       *string
	allowed []string
}

func (e *enumValue) String() string { return *e.p }
func (e *enumValue) Type() string   { return "string" }
func (e *enumValue) Set(s string) error {
	// "Write" and " write" are what was meant.
	v := strings.ToLower(strings.TrimSpace(s))
	if !slices.Contains(e.allowed, v) {
		return fmt.Errorf("must be %s, not %q", orList(e.allowed), s)
	}
	*e.p = v
	return nil
}

// EnumFlag registers a string flag that takes one of allowed (gh's
// StringEnumFlag): the choices are listed in its help, offered by shell
// completion, and anything else is a usage error naming them — checked
// while parsing, before any request. def may be "" (the flag unset).
func EnumFlag(cmd *cobra.Command, p *string, name, shorthand, def string, allowed []string, usage string) {
	*p = def
	cmd.Flags().VarP(&enumValue{p: p, allowed: allowed}, name, shorthand, usage+": "+orList(allowed))
	_ = cmd.RegisterFlagCompletionFunc(name, cobra.FixedCompletions(allowed, cobra.ShellCompDirectiveNoFileComp))
}

// pathValue is a string flag that names a file or directory; with
// dash, "-" alone (standard input or output) is a value too.
type pathValue struct {
	p    *string
	dash bool
}

func (v *pathValue) String() string { return *v.p }
func (v *pathValue) Type() string   { return "string" }
func (v *pathValue) Set(s string) error {
	if strings.HasPrefix(s, "-") && !(v.dash && s == "-") {
		return fmt.Errorf("takes a path, not %q: put the path after it (a name that starts with \"-\" as ./%s)", s, s)
	}
	*v.p = s
	return nil
}

// PathFlag registers a string flag that names a file or directory. A
// value that starts with "-" is a usage error, checked while parsing:
// pflag gives a flag without "=" the next argument whatever it is, so in
// `--env-file --help` the value is another flag the user meant, and
// taking it would write a file named --help. A file whose name starts
// with "-" is still reachable as ./-NAME, as the error says.
func PathFlag(cmd *cobra.Command, p *string, name, shorthand, def, usage string) {
	*p = def
	cmd.Flags().VarP(&pathValue{p: p}, name, shorthand, usage)
}

// PathOrDashFlag is PathFlag for a flag where "-" means standard input
// or output: "-" alone is taken, any other value starting with "-" is
// refused as PathFlag refuses it.
func PathOrDashFlag(cmd *cobra.Command, p *string, name, shorthand, def, usage string) {
	*p = def
	cmd.Flags().VarP(&pathValue{p: p, dash: true}, name, shorthand, usage)
}

// orList writes choices as "a, b or c".
func orList(choices []string) string {
	if len(choices) < 2 {
		return strings.Join(choices, "")
	}
	return strings.Join(choices[:len(choices)-1], ", ") + " or " + choices[len(choices)-1]
}
