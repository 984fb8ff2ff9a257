package sshkey

import (
	"context"
	"fmt"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/cmd/internal/confirm"
	"github.com/spf13/cobra"
)

type deleteOptions struct {
	cmdutil.Deps
	id  int64
	yes bool
}

func newDeleteCmd(f *cmdutil.Factory, runF func(context.Context, *deleteOptions) error) *cobra.Command {
	opts := &deleteOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runDelete)
	cmd := &cobra.Command{
		Use:     "delete ID",
		Aliases: []string{"rm"},
		Short:   "Remove an SSH key from your account",
		Long: `Remove the key with the ID ` + "`forge ssh-key list`" + ` shows. On a terminal forge asks
first; elsewhere pass --yes.`,
		Example: `  forge ssh-key delete 3
  forge ssh-key delete 3 --yes`,
		Args: cmdcore.ExactArgs(1, "a key ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := cmdcore.ParseNumber(args[0], "key ID")
			if err != nil {
				return err
			}
			opts.id = id
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVarP(&opts.yes, "yes", "y", false, "Delete without asking")
	return cmd
}

func runDelete(ctx context.Context, opts *deleteOptions) error {
	ios := opts.IO
	if err := confirm.Possible(ios, opts.yes, fmt.Sprintf("key %d", opts.id)); err != nil {
		return err
	}
	c, err := opts.REST()
	if err != nil {
		return err
	}
	if !opts.yes {
		if err := confirm.YesNo(ctx, opts.Deps, fmt.Sprintf("Delete SSH key %d?", opts.id)); err != nil {
			return err
		}
	}
	if err := c.Keys.Delete(ctx, opts.id); err != nil {
		return err
	}
	ios.ErrPrintf("%s Deleted SSH key %d\n", ios.ErrColorScheme().SuccessIcon(), opts.id)
	return nil
}
