package repo

import (
	"context"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/completions"
	"github.com/spf13/cobra"
)

type editOptions struct {
	cmdutil.Deps
	repoFlag string
	args     []string
	update   client.RepoUpdate
	exporter *output.Exporter
}

func newEditCmd(f *cmdutil.Factory, runF func(context.Context, *editOptions) error) *cobra.Command {
	opts := &editOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runEdit)
	var description, branch string
	var private bool
	cmd := &cobra.Command{
		Use:   "edit [OWNER/REPO]",
		Short: "Change a repository's description, visibility or default branch",
		Long: `Change the settings given as flags and leave the others as they are.
--private=false makes a private repository public. Needs admin permission
on the repository.`,
		Example: `  forge repo edit alice/demo --description "The demo app"
  forge repo edit --private
  forge repo edit alice/demo --private=false`,
		ValidArgsFunction: completions.RepoArg(f),
		Args:              cmdcore.MaximumArgs(1, "at most one OWNER/REPO"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.args = args
			fl := cmd.Flags()
			if fl.Changed("description") {
				opts.update.Description = &description
			}
			if fl.Changed("private") {
				opts.update.Private = &private
			}
			if fl.Changed("default-branch") {
				if strings.TrimSpace(branch) == "" {
					return cmdcore.UsageErrorf("--default-branch needs a branch name")
				}
				opts.update.DefaultBranch = &branch
			}
			return runF(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.repoFlag)
	cmd.Flags().StringVarP(&description, "description", "d", "", "Set the description to `text` (\"\" clears it)")
	cmd.Flags().BoolVar(&private, "private", false, "Make the repository private, or public with --private=false")
	cmd.Flags().StringVar(&branch, "default-branch", "", "Set the default `branch`")
	opts.exporter = output.AddJSONFlags(cmd, repoFields...)
	return cmd
}

func runEdit(ctx context.Context, opts *editOptions) error {
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	u := opts.update
	if u.Description == nil && u.Private == nil && u.DefaultBranch == nil {
		return cmdcore.UsageErrorf("nothing to change: pass --description, --private=BOOL or --default-branch")
	}
	name, err := targetRepo(ctx, opts.Deps, opts.args, opts.repoFlag)
	if err != nil {
		return err
	}
	c, err := opts.REST()
	if err != nil {
		return err
	}
	r, err := c.Repos.Update(ctx, name, u)
	if err != nil {
		return err
	}
	ios := opts.IO
	if opts.exporter.Enabled() {
		return opts.exporter.Write(ios, r.RawJSON())
	}
	var changed []string
	if u.Description != nil {
		changed = append(changed, "description")
	}
	if u.Private != nil {
		changed = append(changed, "now "+visibility(*u.Private))
	}
	if u.DefaultBranch != nil {
		changed = append(changed, "default branch "+*u.DefaultBranch)
	}
	ios.ErrPrintf("%s Edited %s (%s)\n", ios.ErrColorScheme().SuccessIcon(), name, strings.Join(changed, ", "))
	return nil
}
