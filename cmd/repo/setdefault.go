package repo

import (
	"context"
	"errors"
	"net/url"
	"os"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/cmd/internal/pick"
	"github.com/forgehq/forge/internal/gitremote"
	"github.com/spf13/cobra"
)

type setDefaultOptions struct {
	cmdutil.Deps
	repo  string
	view  bool
	unset bool
}

func newSetDefaultCmd(f *cmdutil.Factory, runF func(context.Context, *setDefaultOptions) error) *cobra.Command {
	opts := &setDefaultOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runSetDefault)
	cmd := &cobra.Command{
		Use:   "set-default [OWNER/REPO]",
		Short: "Choose which git remote's repository commands use here",
		Long: `When the git remotes of this working tree point at more than one
repository of the service (a fork's origin and its upstream), commands
without -R use one of them: the default set here, else upstream, else
origin. The first time forge picks one for you it says which.

set-default records the choice in git config (remote.NAME.forge-resolved,
as gh records gh-resolved): give the repository, or choose from a list on
a terminal. --view prints the repository commands use; --unset forgets
the choice.`,
		Example: `  forge repo set-default alice/app
  forge repo set-default --view
  forge repo set-default --unset`,
		Args: cmdcore.MaximumArgs(1, "one OWNER/REPO"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.repo = args[0]
			}
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.view, "view", false, "Print the repository commands use here")
	cmd.Flags().BoolVar(&opts.unset, "unset", false, "Forget the default set here")
	cmd.MarkFlagsMutuallyExclusive("view", "unset")
	return cmd
}

func runSetDefault(ctx context.Context, opts *setDefaultOptions) error {
	if opts.repo != "" && (opts.view || opts.unset) {
		return cmdcore.UsageErrorf("give OWNER/REPO or --view or --unset, not both")
	}
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	u, err := url.Parse(s.BaseURL)
	if s.BaseURL == "" || err != nil || u.Host == "" {
		return cmdcore.UsageErrorf("no base URL is configured to match git remotes against: run `forge auth login`")
	}
	dir, err := os.Getwd()
	if err != nil {
		return err
	}
	remotes, err := gitremote.Remotes(ctx, dir)
	if errors.Is(err, gitremote.ErrNoGit) {
		return cmdcore.UsageErrorf("not in a git repository: set-default chooses among the git remotes of a working tree")
	}
	cands := gitremote.Candidates(remotes, u.Host)
	if len(cands) == 0 {
		return cmdcore.UsageErrorf("no git remote here points at %s", u.Host)
	}
	ios := opts.IO
	cs := ios.ErrColorScheme()
	switch {
	case opts.view:
		c := cands[0]
		if !c.Remote.Default {
			ios.ErrPrintf("No default set here; commands use the remote %s\n", c.Remote.Name)
		}
		err := ios.Println(c.Repo)
		return err
	case opts.unset:
		if err := gitremote.SetDefault(ctx, dir, remotes, ""); err != nil {
			return err
		}
		ios.ErrPrintf("%s Forgot the default repository here\n", cs.SuccessIcon())
		return nil
	}
	i, err := chooseCandidate(ctx, opts, cands)
	if err != nil {
		return err
	}
	c := cands[i]
	if err := gitremote.SetDefault(ctx, dir, remotes, c.Remote.Name); err != nil {
		return err
	}
	ios.ErrPrintf("%s Commands here use %s (the git remote %s)\n", cs.SuccessIcon(), c.Repo, c.Remote.Name)
	return nil
}

// chooseCandidate finds the repository named, or asks on a terminal.
func chooseCandidate(ctx context.Context, opts *setDefaultOptions, cands []gitremote.Candidate) (int, error) {
	var names []string
	for _, c := range cands {
		names = append(names, c.Repo.String()+" ("+c.Remote.Name+")")
	}
	if opts.repo == "" {
		noWay := cmdcore.UsageErrorf("which repository? pass one of %s", strings.Join(names, ", "))
		return pick.One(ctx, opts.IO, opts.Prompter, "Which repository should commands here use?", names, noWay)
	}
	for i, c := range cands {
		if strings.EqualFold(c.Repo.String(), strings.TrimSpace(opts.repo)) {
			return i, nil
		}
	}
	return 0, cmdcore.UsageErrorf("no git remote here points at %s; the remotes point at %s", opts.repo, strings.Join(names, ", "))
}
