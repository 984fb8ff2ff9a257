package output

import (
	"strings"

	"github.com/spf13/cobra"
)

// NormalizeJSONArgs lets `--json number,state` take its field list as a
// separate word. --json also works bare (all fields), and pflag cannot have
// both, so before parsing, a word after --json becomes its value when it is
// a comma-separated list or one of the command's known fields. To print all
// fields and pass a positional argument with a field's name, write the
// argument before --json or use --json=FIELDS.
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
		if a == "--json" && i+1 < len(args) && looksLikeFields(args[i+1], known) {
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
		if !(r == ',' || r == '_' || r == '.' || r == ' ' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
