package completions

import (
	"strings"

	"github.com/forgehq/forge/app/output"
	"github.com/spf13/cobra"
)

// JSONFields completes --json's comma-separated field list from the
// command's known fields (output.FieldsAnnotation): after "number,ti" it
// offers "number,title", never a field already listed.
func JSONFields(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	known := cmd.Annotations[output.FieldsAnnotation]
	if known == "" {
		return nil, noFiles
	}
	done, last := "", toComplete
	if i := strings.LastIndexByte(toComplete, ','); i >= 0 {
		done, last = toComplete[:i+1], toComplete[i+1:]
	}
	chosen := map[string]bool{}
	for _, f := range strings.Split(done, ",") {
		chosen[f] = true
	}
	var out []cobra.Completion
	for _, f := range strings.Split(known, ",") {
		if !chosen[f] && strings.HasPrefix(f, last) {
			out = append(out, done+f)
		}
	}
	return out, noFiles | cobra.ShellCompDirectiveNoSpace
}

// Args prepares a completion request's words for cobra: `--json nu<TAB>`
// becomes `--json=nu`, so the word after --json completes as its fields.
// (--json also works bare, so to cobra a separate word after it is an
// argument; when running, output.NormalizeJSONArgs joins them the same
// way.) Other command lines pass unchanged.
func Args(args []string) []string {
	n := len(args)
	if n < 3 || args[0] != cobra.ShellCompRequestCmd || args[n-2] != "--json" {
		return args
	}
	out := append([]string(nil), args[:n-2]...)
	return append(out, "--json="+args[n-1])
}
