package repo

import (
	"context"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/client"
	"github.com/spf13/cobra"
)

type createOptions struct {
	cmdutil.Deps
	name        string
	description string
	private     bool
	init        bool
	clone       bool
	exporter    *output.Exporter
}

func newCreateCmd(f *cmdutil.Factory, runF func(context.Context, *createOptions) error) *cobra.Command {
	opts := &createOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runCreate)
	cmd := &cobra.Command{
		Use:   "create NAME",
		Short: "Create a repository under your account",
		Long: `Create a repository under your account. It is public unless --private;
--init gives it a first commit with a README.md, so it can be cloned and
read at once. NAME may be written OWNER/NAME when OWNER is you.

Prints the repository's web address; --json prints the whole repository.
--clone then clones it into a directory of its name, as repo clone does.`,
		Example: `  forge repo create demo
  forge repo create demo --private --init --description "A demo app"
  forge repo create demo --init --clone
  forge repo create demo --json clone_url --jq .clone_url`,
		Args: cmdcore.ExactArgs(1, "the repository NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.name = args[0]
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.description, "description", "d", "", "A short `text` saying what the repository is for")
	cmd.Flags().BoolVar(&opts.private, "private", false, "Make the repository private (default: public)")
	cmd.Flags().BoolVar(&opts.init, "init", false, "Start with a commit holding a README.md")
	cmd.Flags().BoolVarP(&opts.clone, "clone", "c", false, "Clone the new repository into a directory of its name (as repo clone does)")
	opts.exporter = output.AddJSONFlags(cmd, repoFields...)
	return cmd
}

func runCreate(ctx context.Context, opts *createOptions) error {
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	if opts.clone && opts.exporter.Enabled() {
		return cmdcore.UsageErrorf("--clone prints git's progress, which does not go with --json, --jq or --template")
	}
	owner, name, hasOwner := strings.Cut(strings.TrimSpace(opts.name), "/")
	if !hasOwner {
		name, owner = owner, ""
	}
	if name == "" || strings.Contains(name, "/") {
		return cmdcore.UsageErrorf("invalid repository name %q: give NAME, as in `forge repo create demo`", opts.name)
	}
	c, err := opts.REST()
	if err != nil {
		return err
	}
	if hasOwner {
		me, err := c.Account.Me(ctx)
		if err != nil {
			return err
		}
		if !strings.EqualFold(owner, me.Login) {
			return cmdcore.UsageErrorf("repositories are created under your own account (%s), not %s: give just the NAME", me.Login, owner)
		}
	}
	r, err := c.Repos.Create(ctx, client.RepoCreate{Name: name, Description: opts.description, Private: opts.private, AutoInit: opts.init})
	if err != nil {
		return err
	}
	ios := opts.IO
	if opts.exporter.Enabled() {
		return opts.exporter.Write(ios, r.RawJSON())
	}
	ios.ErrPrintf("%s Created %s repository %s\n", ios.ErrColorScheme().SuccessIcon(), visibility(r.Private), r.RepoName().String())
	if err = ios.Println(r.HTMLURL); err != nil || !opts.clone {
		return err
	}
	return runClone(ctx, &cloneOptions{Deps: opts.Deps, repo: r.RepoName().String()})
}
