package pr

import (
	"context"
	"fmt"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/gitremote"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
)

type gitOptions struct {
	cmdutil.Deps
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

func newCheckoutCmd(f *cmdutil.Factory, runF func(context.Context, *gitOptions) error) *cobra.Command {
	if runF == nil {
		runF = runCheckout
	}
	return prArg(&cobra.Command{
		Use:     "checkout {NUMBER | URL}",
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

// pull reads the pull request the options name.
func (opts *gitOptions) pull(ctx context.Context) (*client.Client, client.RepoName, *client.PullRequest, error) {
	c, name, err := opts.RepoClient(ctx, opts.repoFlag)
	if err != nil {
		return nil, name, nil, err
	}
	p, err := c.Pulls.Get(ctx, name, opts.number)
	return c, name, p, err
}

// fetched reads the pull request and fetches its two branches into the
// clone here; it returns the remote-tracking refs of head and base.
func (opts *gitOptions) fetched(ctx context.Context) (g gitremote.Git, p *client.PullRequest, head, base string, err error) {
	_, name, p, err := opts.pull(ctx)
	if err != nil {
		return g, nil, "", "", err
	}
	remote, err := cloneRemote(ctx, name)
	if err != nil {
		return g, nil, "", "", err
	}
	if g, err = opts.Git(); err != nil {
		return g, nil, "", "", err
	}
	head, base, err = fetchSides(ctx, g, opts.IO, remote, p)
	return g, p, head, base, err
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
	fmt.Fprintf(ios.ErrOut, "%s Checked out pull request #%d on branch %s\n", ios.ErrColorScheme().SuccessIcon(), p.Number, text.OnTerminal(ios.IsStderrTTY(), branch))
	return nil
}

func newDiffCmd(f *cmdutil.Factory, runF func(context.Context, *gitOptions) error) *cobra.Command {
	if runF == nil {
		runF = runDiff
	}
	return prArg(&cobra.Command{
		Use:   "diff {NUMBER | URL}",
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
