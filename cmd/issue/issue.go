// Package issue implements `forge issue`: list, open, read, comment on,
// close and reopen the issues of a repository.
package issue

import (
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/spf13/cobra"
)

// issueFields are the fields forge knows of an issue; --json passes
// through whatever else the service sends.
var issueFields = []string{"id", "number", "title", "body", "state", "user", "comments", "created_at",
	"updated_at", "closed_at", "html_url"}

// viewFields are issueFields and what only `issue view` adds: the
// comments themselves (a list would need a request per issue).
var viewFields = append(issueFields[:len(issueFields):len(issueFields)], "comments_list")

// NewCmd returns `forge issue` and its subcommands.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdcore.Group(&cobra.Command{
		Use:   "issue <command>",
		Short: "List, open, read, comment on and close issues",
		Example: `  forge issue list -R alice/demo
  forge issue create --title "Crash on start"
  forge issue close 12`,
		Long: `Work with the issues of a repository: -R OWNER/REPO (also FORGE_REPO)
names it; without either, forge uses the git remote of the current
directory that points at the profile's host (upstream, then origin, then
the others).`,
	})
	cmd.AddCommand(newListCmd(f, nil), newCreateCmd(f, nil), newViewCmd(f, nil), newCommentCmd(f, nil), newEditCmd(f, nil),
		newCloseCmd(f, nil), newReopenCmd(f, nil))
	return cmd
}

// parseNumber reads an issue number: 12 or #12.
func parseNumber(arg string, repoFlag *string) (int64, error) {
	return cmdutil.ParseRef(strings.TrimPrefix(arg, "#"), "issue number", "issues", repoFlag)
}

// stateColor colours an issue's state in tables.
func stateColor(state string) output.Color {
	if state == "open" {
		return output.Green
	}
	return output.Magenta
}
