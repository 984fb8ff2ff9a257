package completions

import (
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/output"
	"github.com/spf13/cobra"
)

// Register wires the completions of flags that many commands share, so a
// new command gets them without a line of its own: --profile (profile
// names), -R/--repo (OWNER/REPO) and --json (the command's fields).
// Arguments are wired in each command's file, with ValidArgsFunction.
func Register(root *cobra.Command, f *cmdutil.Factory) {
	_ = root.RegisterFlagCompletionFunc("profile", Profiles(f))
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if fl := c.Flags().Lookup("repo"); fl != nil && c.Flags().ShorthandLookup("R") == fl {
			_ = c.RegisterFlagCompletionFunc("repo", Repos(f))
		}
		if c.Flags().Lookup("json") != nil && c.Annotations[output.FieldsAnnotation] != "" {
			_ = c.RegisterFlagCompletionFunc("json", JSONFields)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}
