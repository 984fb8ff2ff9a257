package pr

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/forgehq/forge/internal/gitremote"
)

// cloneRemote is the git remote of the working tree here that points at
// repo: pr checkout and pr diff work through it, with git's own
// credentials (forge auth setup-git).
func cloneRemote(ctx context.Context, repo client.RepoName) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	if _, err := exec.LookPath("git"); err != nil {
		return "", errors.New("git is not installed: install git (https://git-scm.com)")
	}
	remotes, err := gitremote.Remotes(ctx, dir)
	if errors.Is(err, gitremote.ErrNoGit) {
		return "", cmdutil.UsageErrorf("not in a git repository: run it in a clone of %s (forge repo clone %s)", repo, repo)
	}
	for _, rm := range remotes {
		if _, r, ok := gitremote.ParseURL(rm.URL); ok && strings.EqualFold(r.Owner, repo.Owner) && strings.EqualFold(r.Name, repo.Name) {
			return rm.Name, nil
		}
	}
	return "", cmdutil.UsageErrorf("no git remote here points at %s: run it in a clone of it (forge repo clone %s)", repo, repo)
}

// git runs git with the command's streams; a failure is git's own message
// (already on stderr) and exit 1.
func git(ctx context.Context, f *cmdutil.Factory, args ...string) error {
	ios := f.IOStreams
	cmd := exec.CommandContext(ctx, "git", args...)
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
func fetchSides(ctx context.Context, f *cmdutil.Factory, remote string, p *client.PullRequest) (head, base string, err error) {
	if p.Head.Ref == "" || p.Base.Ref == "" {
		return "", "", fmt.Errorf("the service gave no head or base branch for pull request #%d", p.Number)
	}
	head, base = remote+"/"+p.Head.Ref, remote+"/"+p.Base.Ref
	err = git(ctx, f, "fetch", "--quiet", remote,
		"+refs/heads/"+p.Head.Ref+":refs/remotes/"+head,
		"+refs/heads/"+p.Base.Ref+":refs/remotes/"+base)
	if err != nil && ctx.Err() == nil {
		err = fmt.Errorf("%w; if git could not log in, run `forge auth setup-git` once", err)
	}
	return head, base, err
}

// branchExists reports whether the local branch name exists.
func branchExists(ctx context.Context, name string) bool {
	return exec.CommandContext(ctx, "git", "show-ref", "--verify", "--quiet", "refs/heads/"+name).Run() == nil
}
