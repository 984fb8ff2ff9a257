package output

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// NormalizeJSONArgs lets `--json number,state` take its field list as a
// separate word. --json also works bare (all fields), and pflag cannot have
// both, so before parsing, a word after --json becomes its value when
//   - it is a comma-separated list or one of the command's known fields, or
//   - it has the shape of a field name and the command's arguments are wrong
//     with it and right without it (`issue list --json numbr`, `repo view
//     --json bogus alice/demo`): it was meant as a field, and the unknown
//     field error, naming the available ones, is the one that helps.
//
// To print all fields and pass a positional argument with a field's name,
// write the argument before --json or use --json=FIELDS.
func NormalizeJSONArgs(root *cobra.Command, args []string) []string {
	cmd, _, err := root.Find(args)
	if err != nil || cmd == nil {
		return args
	}
	known := map[string]bool{}
	for _, f := range strings.Split(cmd.Annotations[FieldsAnnotation], ",") {
		if f != "" {
			known[f] = true
		}
	}
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if a == "--json" && i+1 < len(args) && (looksLikeFields(args[i+1], known) || meantAsField(cmd, args, i+1)) {
			out = append(out, "--json="+args[i+1])
			i++
			continue
		}
		out = append(out, a)
	}
	return out
}

func looksLikeFields(word string, known map[string]bool) bool {
	if word == "" || strings.HasPrefix(word, "-") {
		return false
	}
	if known[word] {
		return true
	}
	if !strings.Contains(word, ",") {
		return false
	}
	for _, r := range word {
		if !(r == ',' || r == '_' || r == '.' || r == ' ' || isFieldRune(r)) {
			return false
		}
	}
	return true
}

func isFieldRune(r rune) bool {
	return r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// meantAsField reports whether args[at], the word after a bare --json, is a
// field name rather than one of cmd's arguments: it looks like a name
// (a letter or _, then letters, digits, _), and cmd's Args accepts the
// arguments without it but not with it.
func meantAsField(cmd *cobra.Command, args []string, at int) bool {
	w := args[at]
	if cmd.Args == nil || w == "" || !(w[0] == '_' || w[0] >= 'a' && w[0] <= 'z' || w[0] >= 'A' && w[0] <= 'Z') {
		return false
	}
	for _, r := range w {
		if !isFieldRune(r) {
			return false
		}
	}
	pos := positionals(cmd, args)
	k := slices.Index(pos, at)
	if k < 0 {
		return false
	}
	// The first words are the command's path (`issue list`).
	depth := 0
	for c := cmd; c.HasParent(); c = c.Parent() {
		depth++
	}
	if k < depth || len(pos) < depth {
		return false
	}
	words := func(skip int) []string {
		var out []string
		for j, p := range pos[depth:] {
			if j+depth != skip {
				out = append(out, args[p])
			}
		}
		return out
	}
	return cmd.Args(cmd, words(-1)) != nil && cmd.Args(cmd, words(k)) == nil
}

// positionals returns the indexes in args of the words that are not flags
// or flag values for cmd, up to "--". A flag cmd does not know is taken to
// have a value, as cobra does when it looks for subcommands.
func positionals(cmd *cobra.Command, args []string) []int {
	lookup := func(long string, short string) *pflag.Flag {
		for _, fs := range []*pflag.FlagSet{cmd.Flags(), cmd.InheritedFlags()} {
			if long != "" {
				if f := fs.Lookup(long); f != nil {
					return f
				}
			} else if f := fs.ShorthandLookup(short); f != nil {
				return f
			}
		}
		return nil
	}
	takesValue := func(f *pflag.Flag) bool { return f == nil || f.NoOptDefVal == "" }
	var out []int
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return out
		case strings.HasPrefix(a, "--"):
			if !strings.Contains(a, "=") && takesValue(lookup(a[2:], "")) {
				i++
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			// -abc: flags a, b, c; the first that takes a value takes
			// the rest of the word, or the next word.
			for j := 1; j < len(a); j++ {
				if a[j] == '=' {
					break
				}
				if f := lookup("", a[j:j+1]); takesValue(f) {
					if j == len(a)-1 {
						i++
					}
					break
				}
			}
		default:
			out = append(out, i)
		}
	}
	return out
}
