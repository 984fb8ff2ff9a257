// Package pr implements `forge pr`: the pull requests of a repository.
package pr

import (
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/spf13/cobra"
)

// pullFields are the fields forge knows of a pull request (the
// specification shows none; these are the reference server's, after
// GitHub); --json passes through whatever else the service sends.
var pullFields = []string{"id", "number", "title", "body", "state", "user", "head", "base", "draft", "merged",
	"created_at", "updated_at", "closed_at", "merged_at", "html_url"}

// NewCmd returns `forge pr` and its subcommands.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdcore.Group(&cobra.Command{
		Use:   "pr <command>",
		Short: "List, view, check out and diff pull requests",
		Example: `  forge pr list -R alice/demo --state merged
  forge pr view 3`,
		Long: `Read the pull requests of a repository: -R OWNER/REPO (also FORGE_REPO)
names it; without either, forge uses the git remote of the current
directory that points at the profile's host. checkout and diff work
through git in a clone of the repository.`,
	})
	cmd.AddCommand(newListCmd(f, nil), newViewCmd(f, nil), newCheckoutCmd(f, nil), newDiffCmd(f, nil), newChecksCmd(f, nil))
	return cmd
}

// stateColors is the colour of a pull request's state word
// (PullRequest.StateWord), in list's table and in view's header, with its
// name for ColorScheme.Named; draft and anything else are gray. A switch,
// not a package map: nothing is built at start-up.
func stateColors(state string) (output.Color, string) {
	switch state {
	case "open":
		return output.Green, "green"
	case "merged":
		return output.Magenta, "magenta"
	case "closed":
		return output.Red, "red"
	}
	return output.Gray, "gray"
}

// stateColor is a state's colour in a table.
func stateColor(state string) output.Color {
	c, _ := stateColors(state)
	return c
}

// paintState writes s in state's colour, for lines drawn with cs.
func paintState(cs *iostreams.ColorScheme, state, s string) iostreams.Styled {
	_, name := stateColors(state)
	return cs.Named(name, s)
}
