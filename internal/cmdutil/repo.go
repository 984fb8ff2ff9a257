package cmdutil

import (
	"context"
	"errors"
	"net/url"
	"os"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/gitremote"
	"github.com/spf13/cobra"
)

// AddRepoFlag adds -R/--repo OWNER/REPO to a repository-scoped command.
func AddRepoFlag(cmd *cobra.Command, target *string) {
	cmd.Flags().StringVarP(target, "repo", "R", "", "Select a repository as `OWNER/REPO` (also FORGE_REPO; default: from the git remotes here)")
}

// BaseRepo decides which repository a command is about: the -R value, else
// FORGE_REPO, else the git remote of the current directory that points at
// the profile's host (upstream, then origin, then the others). When none
// matches it is a usage error saying to pass -R.
func (f *Factory) BaseRepo(ctx context.Context, flag string) (client.RepoName, error) {
	r, err := f.baseRepo(ctx, flag)
	return client.RepoName{Owner: r.Owner, Name: r.Name}, err
}

func (f *Factory) baseRepo(ctx context.Context, flag string) (gitremote.Repo, error) {
	for _, v := range []string{flag, f.Getenv("FORGE_REPO")} {
		if v == "" {
			continue
		}
		r, err := gitremote.Parse(v)
		if err != nil {
			return gitremote.Repo{}, &UsageError{Err: err}
		}
		return r, nil
	}
	s, err := f.Settings()
	if err != nil {
		return gitremote.Repo{}, err
	}
	u, err := url.Parse(s.BaseURL)
	if s.BaseURL == "" || err != nil || u.Host == "" {
		return gitremote.Repo{}, UsageErrorf("cannot tell which repository: pass -R OWNER/REPO (no base URL is configured to match git remotes against)")
	}
	dir, err := os.Getwd()
	if err != nil {
		return gitremote.Repo{}, UsageErrorf("cannot tell which repository: pass -R OWNER/REPO")
	}
	remotes, err := gitremote.Remotes(ctx, dir)
	if errors.Is(err, gitremote.ErrNoGit) {
		return gitremote.Repo{}, UsageErrorf("cannot tell which repository: not in a git repository; pass -R OWNER/REPO")
	}
	if r, _, ok := gitremote.Pick(remotes, u.Host); ok {
		return r, nil
	}
	return gitremote.Repo{}, UsageErrorf("cannot tell which repository: no git remote here points at %s; pass -R OWNER/REPO", u.Host)
}

// RepoClient returns the REST client and the repository a repo-scoped
// command works on (see BaseRepo), in the order a command needs them
// checked: which repository first, then whether forge is logged in.
func (f *Factory) RepoClient(ctx context.Context, flag string) (*client.Client, client.RepoName, error) {
	name, err := f.BaseRepo(ctx, flag)
	if err != nil {
		return nil, name, err
	}
	c, err := f.REST()
	return c, name, err
}
