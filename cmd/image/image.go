// Package image implements `forge image`: pushing, pulling, listing,
// inspecting, copying and deleting container images in the service's
// private registry (and, by full reference, in any other).
package image

import (
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/spf13/cobra"
)

// NewCmd returns `forge image` and its subcommands.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdcore.Group(&cobra.Command{
		Use:   "image <command>",
		Short: "Push, pull and manage container images in the registry",
		Long: `Work with the service's private container registry. Images live under the
namespace of your username: you push to USER/..., and pull your own images and
those shared with you.

References may be short: "app:1.0" is {registry}/{you}/app:1.0 and "bob/app:1"
is {registry}/bob/app:1, where {registry} is the profile's registry address. A
first component with a dot or a colon (ghcr.io/..., localhost:5000/...) names
another registry, reached with the credentials of your docker configuration.

Log in once with ` + "`forge image login`" + `; in CI, set FORGE_USERNAME and
FORGE_PASSWORD instead.`,
		Example: `  forge image login
  forge image push app.tar app:1.0
  forge image tags app
  forge image pull app:1.0 app.tar`,
	})
	cmd.AddCommand(
		newLoginCmd(f, nil), newLogoutCmd(f, nil),
		newPushCmd(f, nil), newPullCmd(f, nil),
		newTagsCmd(f, nil), newListCmd(f, nil), newInspectCmd(f, nil),
		newCopyCmd(f, nil), newDeleteCmd(f, nil),
	)
	return cmd
}
