package pr

import (
	"context"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/spf13/cobra"
)

func newDiffCmd(f *cmdutil.Factory, runF func(context.Context, *gitOptions) error) *cobra.Command {
	runF = cmdcore.Seam(runF, runDiff)
	return prArg(&cobra.Command{
		Use:   "diff [NUMBER | URL]",
		Short: "Show a pull request's changes",
		Long: `Show what the pull request changes: git diff from where its head branched
off the base branch to its head (base...head), after fetching both from the
git remote here that points at the repository. The service has no diff
endpoint; git does the work, with forge's login for the service's host, as
in pr checkout. Coloured on a terminal, through the pager.`,
		Example: `  forge pr diff 3
  forge pr diff 3 | git apply`,
	}, &gitOptions{Deps: f.Deps()}, runF)
}

func runDiff(ctx context.Context, opts *gitOptions) error {
	g, _, head, base, err := opts.fetched(ctx)
	if err != nil {
		return err
	}
	ios := opts.IO
	color := "--color=never"
	if ios.ColorEnabled() {
		color = "--color=always"
	}
	defer ios.StartPager()()
	return git(ctx, g, opts.IO, "diff", color, base+"..."+head)
}
