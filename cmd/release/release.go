// Package release implements `forge release`: the published releases of a
// repository.
package release

import (
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/spf13/cobra"
)

// releaseFields are the fields forge knows of a release (the specification
// shows none; these are the reference server's, after GitHub).
var releaseFields = []string{"id", "tag_name", "name", "body", "draft", "prerelease", "target_commitish",
	"author", "created_at", "published_at", "html_url"}

// NewCmd returns `forge release` and its subcommands.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdcore.Group(&cobra.Command{
		Use:   "release <command>",
		Short: "List and view releases",
		Example: `  forge release list -R alice/demo
  forge release view v1.0.0 -R alice/demo`,
	})
	cmd.AddCommand(newListCmd(f, nil), newViewCmd(f, nil))
	return cmd
}
