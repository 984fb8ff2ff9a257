package pr

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/gitremote"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/origin"
	"github.com/spf13/cobra"
)

// cloneRemote is the git remote of the working tree here that points at
// repo: pr checkout and pr diff work through it.
func cloneRemote(ctx context.Context, repo client.RepoName) (gitremote.Remote, error) {
	dir, err := os.Getwd()
	if err != nil {
		return gitremote.Remote{}, err
	}
	if _, err := exec.LookPath("git"); err != nil {
		return gitremote.Remote{}, errors.New("git is not installed: install git (https://git-scm.com)")
	}
	remotes, err := gitremote.Remotes(ctx, dir)
	if errors.Is(err, gitremote.ErrNoGit) {
		return gitremote.Remote{}, cmdcore.UsageErrorf("not in a git repository: run it in a clone of %s (forge repo clone %s)", repo, repo)
	}
	for _, rm := range remotes {
		if _, r, ok := gitremote.ParseURL(rm.URL); ok && strings.EqualFold(r.Owner, repo.Owner) && strings.EqualFold(r.Name, repo.Name) {
			return rm, nil
		}
	}
	return gitremote.Remote{}, cmdcore.UsageErrorf("no git remote here points at %s: run it in a clone of it (forge repo clone %s)", repo, repo)
}

// git runs git with the command's streams, with forge's login for the
// service (cmdutil.Deps.Git); a failure is git's own message (already on
// stderr) and exit 1.
func git(ctx context.Context, g gitremote.Git, ios *iostreams.IOStreams, args ...string) error {
	cmd := g.Command(ctx, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = ios.In, ios.Out, ios.ErrOut
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("git %s failed: %v", args[0], err)
	}
	return nil
}

// fetchSides fetches the pull request's head and base branches from
// remote into its remote-tracking refs and returns their names.
func fetchSides(ctx context.Context, g gitremote.Git, ios *iostreams.IOStreams, remote gitremote.Remote, p *client.PullRequest) (head, base string, err error) {
	if p.Head.Ref == "" || p.Base.Ref == "" {
		return "", "", fmt.Errorf("the service gave no head or base branch for pull request #%d", p.Number)
	}
	head, base = remote.Name+"/"+p.Head.Ref, remote.Name+"/"+p.Base.Ref
	err = git(ctx, g, ios, "fetch", "--quiet", remote.Name,
		"+refs/heads/"+p.Head.Ref+":refs/remotes/"+head,
		"+refs/heads/"+p.Base.Ref+":refs/remotes/"+base)
	if err != nil && ctx.Err() == nil {
		err = fmt.Errorf("%w; %s", err, loginHint(g, remote))
	}
	return head, base, err
}

// loginHint says where to look when git could not fetch from remote:
// forge gives git its token only for the service's own origin, and only
// over http(s).
func loginHint(g gitremote.Git, remote gitremote.Remote) string {
	u, err := url.Parse(remote.URL)
	switch {
	case err != nil || u.Scheme == "ssh" || !strings.Contains(remote.URL, "://"): // ssh://, or scp-like host:path
		return fmt.Sprintf("remote %s is reached over ssh, where git logs in with your ssh key, not forge's login: `forge ssh-key add` gives the service one", remote.Name)
	case g.Origin != "" && origin.Of(u) != "" && origin.Of(u) != origin.OfString(g.Origin):
		return fmt.Sprintf("remote %s is on %s, not on the service's host: git used its own credentials there", remote.Name, u.Host)
	case g.Origin == "":
		return "if git could not log in, run `forge auth login`"
	default:
		return "if git could not log in, check `forge auth status`"
	}
}

// branchExists reports whether the local branch name exists.
func branchExists(ctx context.Context, g gitremote.Git, name string) bool {
	return g.Command(ctx, "show-ref", "--verify", "--quiet", "refs/heads/"+name).Run() == nil
}

// gitOptions are what pr checkout and pr diff use: the pull request
// they work on through the clone here.
type gitOptions struct {
	cmdutil.Deps
	repoFlag string
	number   int64
}

// prArg makes cmd take one pull request NUMBER or URL into opts; without
// one, the current branch's (pullNumber).
func prArg(cmd *cobra.Command, opts *gitOptions, run func(context.Context, *gitOptions) error) *cobra.Command {
	cmd.Args = cmdcore.MaximumArgs(1, "a pull request NUMBER")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		var n int64
		var err error
		if len(args) == 0 {
			n, err = pullNumber(cmd.Context(), opts.Deps, opts.repoFlag, cmd.Name())
		} else {
			n, err = cmdutil.ParseRef(strings.TrimPrefix(args[0], "#"), "pull request number", "pull", &opts.repoFlag)
		}
		if err != nil {
			return err
		}
		opts.number = n
		return run(cmd.Context(), opts)
	}
	cmdutil.AddRepoFlag(cmd, &opts.repoFlag)
	return cmd
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
