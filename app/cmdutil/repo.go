package cmdutil

import (
	"context"
	"errors"
	"net/url"
	"os"
	"strings"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/internal/gitremote"
	"github.com/spf13/cobra"
)

// AddRepoFlag adds -R/--repo to a repository-scoped command.
func AddRepoFlag(cmd *cobra.Command, target *string) {
	cmd.Flags().StringVarP(target, "repo", "R", "", "Select a repository as `[HOST/]OWNER/REPO` or a clone URL (also FORGE_REPO; default: from the git remotes here)")
}

// BaseRepo decides which repository a command is about: the -R value (or
// a command's repository argument), else FORGE_REPO — each OWNER/REPO,
// HOST/OWNER/REPO or a clone URL, where a host selects the profile for
// that server (see useHost) — else the git remote of the current
// directory that points at the profile's host (upstream, then origin, then
// the others). When none matches it is a usage error saying to pass -R.
func (f *Factory) BaseRepo(ctx context.Context, flag string) (client.RepoName, error) {
	r, err := f.baseRepo(ctx, flag)
	return client.RepoName{Owner: r.Owner, Name: r.Name}, err
}

func (f *Factory) baseRepo(ctx context.Context, flag string) (gitremote.Repo, error) {
	for _, v := range []struct{ name, value string }{{"", flag}, {"FORGE_REPO", f.Getenv("FORGE_REPO")}} {
		if v.value == "" {
			continue
		}
		host, r, err := gitremote.Parse(v.value)
		if err != nil && v.name != "" {
			return gitremote.Repo{}, cmdcore.UsageErrorf("%s: %v", v.name, err)
		}
		if err != nil {
			return gitremote.Repo{}, &cmdcore.UsageError{Err: err}
		}
		if host != "" {
			if err := f.useHost(v.name, host); err != nil {
				return gitremote.Repo{}, err
			}
		}
		return r, nil
	}
	s, err := f.Settings()
	if err != nil {
		return gitremote.Repo{}, err
	}
	u, err := url.Parse(s.BaseURL)
	if s.BaseURL == "" || err != nil || u.Host == "" {
		return gitremote.Repo{}, cmdcore.UsageErrorf("cannot tell which repository: pass -R OWNER/REPO (no base URL is configured to match git remotes against)")
	}
	dir, err := os.Getwd()
	if err != nil {
		return gitremote.Repo{}, cmdcore.UsageErrorf("cannot tell which repository: pass -R OWNER/REPO")
	}
	remotes, err := gitremote.Remotes(ctx, dir)
	if errors.Is(err, gitremote.ErrNoGit) {
		return gitremote.Repo{}, cmdcore.UsageErrorf("cannot tell which repository: not in a git repository; pass -R OWNER/REPO")
	}
	if r, rm, ok := gitremote.Pick(remotes, u.Host); ok {
		f.noteRemote(ctx, dir, remotes, u.Host, rm, r)
		return r, nil
	}
	return gitremote.Repo{}, cmdcore.UsageErrorf("cannot tell which repository: no git remote here points at %s; pass -R OWNER/REPO", u.Host)
}

// noteRemote says, once, which remote forge chose when remotes point at
// more than one repository of the service: it marks the remote as the
// default in git config (as gh's gh-resolved), so the choice is said the
// first time only and stays the same until `forge repo set-default`
// changes it.
func (f *Factory) noteRemote(ctx context.Context, dir string, remotes []gitremote.Remote, host string, rm gitremote.Remote, r gitremote.Repo) {
	if rm.Default {
		return
	}
	var others []string
	for _, c := range gitremote.Candidates(remotes, host) {
		if c.Repo != r {
			others = append(others, c.Remote.Name+" ("+c.Repo.String()+")")
		}
	}
	if len(others) == 0 {
		return
	}
	if err := gitremote.SetDefault(ctx, dir, remotes, rm.Name); err != nil {
		return // not said: it would be said again next time
	}
	ios := f.IOStreams
	ios.ErrPrintf("%s Using the git remote %s (%s), not %s; change it with `forge repo set-default`\n",
		ios.ErrColorScheme().WarningIcon(), rm.Name, r, strings.Join(others, ", "))
}

// useHost makes the profile whose base URL is on host the active one, so
// a repository named with its server is looked for on that server and
// never on another. The server fixed by FORGE_BASE_URL or by a profile
// named with --profile or FORGE_PROFILE must be that host; no profile for
// the host is a usage error naming the profiles forge knows.
func (f *Factory) useHost(from, host string) error {
	what := "the repository"
	if from != "" {
		what = "the repository of " + from
	}
	s, err := f.Settings()
	if err != nil {
		return err
	}
	if config.HostMatch(s.BaseURL, host) > 0 {
		return nil
	}
	if s.Sources["base_url"] == config.FromEnv {
		return cmdcore.UsageErrorf("%s is on %s, but FORGE_BASE_URL is %s: unset FORGE_BASE_URL or give OWNER/REPO", what, host, s.BaseURL)
	}
	cf, err := f.ConfigFile()
	if err != nil {
		return err
	}
	names := cf.ProfilesForHost(host)
	if len(names) == 0 {
		return cmdcore.UsageErrorf("%s is on %s, but no profile is for that host (profiles: %s); add one with `forge auth login --base-url https://%s/api/v2`", what, host, knownProfiles(cf), host)
	}
	if s.ProfileSource == config.FromFlag || s.ProfileSource == config.FromEnv {
		return cmdcore.UsageErrorf("%s is on %s, but profile %q is for %s: use --profile %s", what, host, s.Profile, s.BaseURL, names[0])
	}
	f.mu.Lock()
	f.profileFor, f.settings = names[0], nil
	f.mu.Unlock()
	return nil
}

// knownProfiles lists the profiles with their servers, for messages.
func knownProfiles(cf *config.File) string {
	var out []string
	for _, n := range cf.ProfileNames() {
		out = append(out, n+" ("+cf.Profiles[n].BaseURL+")")
	}
	if len(out) == 0 {
		return "none yet"
	}
	return strings.Join(out, ", ")
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
