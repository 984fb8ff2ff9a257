// Package repo implements `forge repo`: repositories, their contents,
// history and collaborators.
package repo

import (
	"context"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/client"
	"github.com/spf13/cobra"
)

// repoFields are the fields forge knows of a repository; --json passes
// through whatever else the service sends.
var repoFields = []string{"id", "name", "full_name", "owner", "description", "private", "visibility",
	"html_url", "clone_url", "ssh_url", "default_branch", "created_at", "updated_at", "pushed_at"}

// NewCmd returns `forge repo` and its subcommands.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdcore.Group(&cobra.Command{
		Use:   "repo <command>",
		Short: "Create, view, clone and manage repositories",
		Example: `  forge repo create demo --private --init
  forge repo clone alice/demo
  forge repo view alice/demo`,
		Long: `Work with repositories: list yours, create, view, edit, delete and clone
them, read their files and history, and manage who may work on them.

Commands about one repository take it as an OWNER/REPO argument or with
-R/--repo (also FORGE_REPO); without either, forge uses the git remote of
the current directory that points at the profile's host (the one chosen
with ` + "`forge repo set-default`" + `, else upstream, then origin, then the
others).`,
	})
	cmd.AddCommand(newListCmd(f, nil), newCreateCmd(f, nil), newViewCmd(f, nil), newEditCmd(f, nil), newDeleteCmd(f, nil),
		newCloneCmd(f, nil), newContentsCmd(f, nil), newCommitsCmd(f, nil), newCollaboratorCmd(f), newSetDefaultCmd(f, nil))
	return cmd
}

// targetRepo picks the repository a command is about: the argument when
// there is one, else -R, FORGE_REPO or the git remotes here. Both an
// argument and -R is a usage error rather than a guess.
func targetRepo(ctx context.Context, d cmdutil.Deps, args []string, flag string) (client.RepoName, error) {
	if len(args) == 0 || args[0] == "" {
		return d.BaseRepo(ctx, flag)
	}
	if flag != "" {
		return client.RepoName{}, cmdcore.UsageErrorf("give the repository either as an argument or with -R, not both")
	}
	return parseRepoArg(ctx, d, args[0])
}

// parseRepoArg reads OWNER/REPO, or a repository's URL. A bare NAME is
// the logged-in user's repository, as gh reads it; finding the user costs
// one request, so it is only asked for then.
func parseRepoArg(ctx context.Context, d cmdutil.Deps, s string) (client.RepoName, error) {
	s = strings.TrimSpace(s)
	if s != "" && !strings.ContainsAny(s, "/:@") {
		c, err := d.REST()
		if err != nil {
			return client.RepoName{}, err
		}
		me, err := c.Account.Me(ctx)
		if err != nil {
			return client.RepoName{}, err
		}
		s = me.Login + "/" + s
	}
	// The same rules as -R: a host in the argument selects its server.
	return d.BaseRepo(ctx, s)
}

func visibility(private bool) string {
	if private {
		return "private"
	}
	return "public"
}
