package pr

import (
	"context"
	"fmt"
	"strings"

	"github.com/forgehq/forge/client"

	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/spf13/cobra"
)

type gitOptions struct {
	f        *cmdutil.Factory
	repoFlag string
	number   int64
}

// prArg makes cmd take one pull request NUMBER or URL into opts.
func prArg(cmd *cobra.Command, opts *gitOptions, run func(context.Context, *gitOptions) error) *cobra.Command {
	cmd.Args = cmdutil.ExactArgs(1, "a pull request NUMBER")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		n, err := cmdutil.ParseRef(strings.TrimPrefix(args[0], "#"), "pull request number", "pull", &opts.repoFlag)
		if err != nil {
			return err
		}
		opts.number = n
		return run(cmd.Context(), opts)
	}
	cmdutil.AddRepoFlag(cmd, &opts.repoFlag)
	return cmd
}

func newCheckoutCmd(f *cmdutil.Factory) *cobra.Command {
	return prArg(&cobra.Command{
		Use:     "checkout {NUMBER | URL}",
		Aliases: []string{"co"},
		Short:   "Check out a pull request's branch in this clone",
		Long: `Fetch the pull request's head branch from the git remote here that points at
the repository, and check it out: a new local branch of the same name that
tracks it, or the existing one, fast-forwarded. git uses its own
credentials (forge auth setup-git).`,
		Example: `  forge pr checkout 3
  forge pr checkout http://forge.example.com/alice/demo/pull/3`,
	}, &gitOptions{f: f}, runCheckout)
}

// pull reads the pull request the options name.
func (opts *gitOptions) pull(ctx context.Context) (*client.Client, client.RepoName, *client.PullRequest, error) {
	c, name, err := opts.f.RepoClient(ctx, opts.repoFlag)
	if err != nil {
		return nil, name, nil, err
	}
	p, err := c.Pulls.Get(ctx, name, opts.number)
	return c, name, p, err
}

// fetched reads the pull request and fetches its two branches into the
// clone here; it returns the remote-tracking refs of head and base.
func (opts *gitOptions) fetched(ctx context.Context) (p *client.PullRequest, head, base string, err error) {
	_, name, p, err := opts.pull(ctx)
	if err != nil {
		return nil, "", "", err
	}
	remote, err := cloneRemote(ctx, name)
	if err != nil {
		return nil, "", "", err
	}
	head, base, err = fetchSides(ctx, opts.f, remote, p)
	return p, head, base, err
}

func runCheckout(ctx context.Context, opts *gitOptions) error {
	p, head, _, err := opts.fetched(ctx)
	if err != nil {
		return err
	}
	branch := p.Head.Ref
	if branchExists(ctx, branch) {
		if err := git(ctx, opts.f, "checkout", "--quiet", branch); err != nil {
			return err
		}
		if err := git(ctx, opts.f, "merge", "--quiet", "--ff-only", head); err != nil {
			return err
		}
	} else if err := git(ctx, opts.f, "checkout", "--quiet", "-b", branch, "--track", head); err != nil {
		return err
	}
	ios := opts.f.IOStreams
	fmt.Fprintf(ios.ErrOut, "%s Checked out pull request #%d on branch %s\n", ios.ErrColorScheme().SuccessIcon(), p.Number, branch)
	return nil
}

func newDiffCmd(f *cmdutil.Factory) *cobra.Command {
	return prArg(&cobra.Command{
		Use:   "diff {NUMBER | URL}",
		Short: "Show a pull request's changes",
		Long: `Show what the pull request changes: git diff from where its head branched
off the base branch to its head (base...head), after fetching both from the
git remote here that points at the repository. The service has no diff
endpoint; git does the work, with its own credentials (forge auth
setup-git). Coloured on a terminal, through the pager.`,
		Example: `  forge pr diff 3
  forge pr diff 3 | git apply`,
	}, &gitOptions{f: f}, runDiff)
}

func runDiff(ctx context.Context, opts *gitOptions) error {
	_, head, base, err := opts.fetched(ctx)
	if err != nil {
		return err
	}
	ios := opts.f.IOStreams
	color := "--color=never"
	if ios.ColorEnabled() {
		color = "--color=always"
	}
	defer ios.StartPager()()
	return git(ctx, opts.f, "diff", color, base+"..."+head)
}
