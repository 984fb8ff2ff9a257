package pr

import (
	"context"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/spf13/cobra"
)

func newCheckoutCmd(f *cmdutil.Factory, runF func(context.Context, *gitOptions) error) *cobra.Command {
	runF = cmdcore.Seam(runF, runCheckout)
	return prArg(&cobra.Command{
		Use:     "checkout [NUMBER | URL]",
		Aliases: []string{"co"},
		Short:   "Check out a pull request's branch in this clone",
		Long: `Fetch the pull request's head branch from the git remote here that points at
the repository, and check it out: a new local branch of the same name that
tracks it, or the existing one, fast-forwarded. For the service's own host,
git uses forge's login for this one command (through forge's credential
helper, given on git's command line: nothing is written to git's
configuration); for another host, git's own credentials.`,
		Example: `  forge pr checkout 3
  forge pr checkout http://forge.example.com/alice/demo/pull/3`,
	}, &gitOptions{Deps: f.Deps()}, runF)
}

func runCheckout(ctx context.Context, opts *gitOptions) error {
	g, p, head, _, err := opts.fetched(ctx)
	if err != nil {
		return err
	}
	branch := p.Head.Ref
	if branchExists(ctx, g, branch) {
		if err := git(ctx, g, opts.IO, "checkout", "--quiet", branch); err != nil {
			return err
		}
		if err := git(ctx, g, opts.IO, "merge", "--quiet", "--ff-only", head); err != nil {
			return err
		}
	} else if err := git(ctx, g, opts.IO, "checkout", "--quiet", "-b", branch, "--track", head); err != nil {
		return err
	}
	ios := opts.IO
	ios.ErrPrintf("%s Checked out pull request #%d on branch %s\n", ios.ErrColorScheme().SuccessIcon(), p.Number, branch)
	return nil
}
