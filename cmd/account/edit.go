package account

import (
	"context"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/client"
	"github.com/spf13/cobra"
)

type editOptions struct {
	cmdutil.Deps
	update client.ProfileUpdate
}

func newEditCmd(f *cmdutil.Factory, runF func(context.Context, *editOptions) error) *cobra.Command {
	opts := &editOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runEdit)
	var fullName, email, location, website, description string
	cmd := &cobra.Command{
		Use:   "edit",
		Short: "Change your name, email, location, website or description",
		Long: `Change the fields given; the others stay as they are. An empty value
clears a field (--location "").`,
		Example: `  forge account edit --full-name "Alice Liddell" --location Oxford
  forge account edit --website ""`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			set := func(flag string, v *string) *string {
				if cmd.Flags().Changed(flag) {
					return v
				}
				return nil
			}
			opts.update = client.ProfileUpdate{
				FullName:    set("full-name", &fullName),
				Email:       set("email", &email),
				Location:    set("location", &location),
				Website:     set("website", &website),
				Description: set("description", &description),
			}
			return runF(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&fullName, "full-name", "", "Your full `name`")
	fl.StringVar(&email, "email", "", "Your email `address`")
	fl.StringVar(&location, "location", "", "Where you are")
	fl.StringVar(&website, "website", "", "Your website `URL`")
	fl.StringVar(&description, "description", "", "A few words about you")
	return cmd
}

func runEdit(ctx context.Context, opts *editOptions) error {
	u := opts.update
	if u.FullName == nil && u.Email == nil && u.Location == nil && u.Website == nil && u.Description == nil {
		return cmdcore.UsageErrorf("nothing to change: pass at least one of --full-name, --email, --location, --website, --description")
	}
	c, err := opts.REST()
	if err != nil {
		return err
	}
	if err := c.Account.UpdateProfile(ctx, u); err != nil {
		return err
	}
	ios := opts.IO
	ios.ErrPrintf("%s Profile updated\n", ios.ErrColorScheme().SuccessIcon())
	return nil
}
