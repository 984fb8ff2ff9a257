package repo

import (
	"context"
	"fmt"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd/internal/listing"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
)

var commitFields = []string{"sha", "commit", "html_url", "author", "committer", "parents"}

type commitsOptions struct {
	cmdutil.Deps
	repoFlag string
	list     listing.Flags
}

func newCommitsCmd(f *cmdutil.Factory, runF func(context.Context, *commitsOptions) error) *cobra.Command {
	opts := &commitsOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runCommits)
	cmd := &cobra.Command{
		Use:   "commits",
		Short: "List the latest commits of a repository",
		Long: `List the latest commits of the default branch, newest first: on a terminal
the short hash, the first line of the message, the author and when; piped,
one tab-separated line each with the full hash and an ISO 8601 date.`,
		Example: `  forge repo commits -R alice/demo
  forge repo commits --limit 5
  forge repo commits --limit 1 --json sha --jq '.[0].sha'`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.repoFlag)
	opts.list.Add(cmd, listing.DefaultLimit, "commits", commitFields...)
	return cmd
}

func runCommits(ctx context.Context, opts *commitsOptions) error {
	c, name, err := opts.list.RepoClient(ctx, opts.Deps, opts.repoFlag)
	if err != nil {
		return err
	}
	ios := opts.IO
	tty := ios.IsStdoutTTY()
	t := output.NewTable(ios, "SHA", "MESSAGE", "AUTHOR", "DATE")
	t.KeepWhole("SHA")
	return listing.Show(ctx, listing.Tail{IO: ios, Flags: &opts.list, Table: t, In: name.String(), Empty: fmt.Sprintf("No commits in %s yet.", name)}, c.Repos.Commits(ctx, name, opts.list.PerPage()), func(cm *client.Commit) {
		sha := cm.SHA
		if tty {
			sha = text.ShortSHA(sha)
		}
		subject, _, _ := strings.Cut(cm.Commit.Message, "\n")
		t.Add(sha, output.Yellow)
		t.Add(subject, output.Bold)
		t.Add(cm.Commit.Author.Name)
		t.AddTime(cm.Commit.Author.Date.Time)
		t.EndRow()
	})
}
