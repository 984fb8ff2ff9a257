package repo

import (
	"context"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd/internal/confirm"
	"github.com/forgehq/forge/completions"
	"github.com/spf13/cobra"
)

type deleteOptions struct {
	cmdutil.Deps
	name client.RepoName
	yes  bool
}

func newDeleteCmd(f *cmdutil.Factory, runF func(context.Context, *deleteOptions) error) *cobra.Command {
	opts := &deleteOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runDelete)
	cmd := &cobra.Command{
		Use:   "delete OWNER/REPO",
		Short: "Delete a repository for good",
		Long: `Delete a repository with its git data, issues, pull requests, releases
and runs. This cannot be undone. The repository is always named in full —
never taken from the current directory — and on a terminal forge asks you
to type that name again; elsewhere pass --yes.`,
		Example: `  forge repo delete alice/demo
  forge repo delete alice/demo --yes`,
		ValidArgsFunction: completions.RepoArg(f),
		Args:              cmdcore.ExactArgs(1, "the OWNER/REPO to delete"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !strings.Contains(args[0], "/") {
				return cmdcore.UsageErrorf("name the repository in full, as in `forge repo delete OWNER/%s`", args[0])
			}
			name, err := parseRepoArg(cmd.Context(), opts.Deps, args[0])
			if err != nil {
				return err
			}
			opts.name = name
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVarP(&opts.yes, "yes", "y", false, "Delete without asking")
	return cmd
}

func runDelete(ctx context.Context, opts *deleteOptions) error {
	ios := opts.IO
	if err := confirm.Possible(ios, opts.yes, opts.name.String()); err != nil {
		return err
	}
	c, err := opts.REST()
	if err != nil {
		return err
	}
	if !opts.yes {
		// Reading the repository first means a typo in the name fails
		// before the question, and the question names what exists.
		if _, err := c.Repos.Get(ctx, opts.name); err != nil {
			return err
		}
		ios.ErrPrintf("%s This deletes %s with its issues, pull requests, releases and runs. It cannot be undone.\n",
			ios.ErrColorScheme().WarningIcon(), opts.name)
		if err := confirm.Typed(ctx, opts.Deps, opts.name.String()); err != nil {
			return err
		}
	}
	if err := c.Repos.Delete(ctx, opts.name); err != nil {
		return err
	}
	ios.ErrPrintf("%s Deleted repository %s\n", ios.ErrColorScheme().SuccessIcon(), opts.name)
	return nil
}
