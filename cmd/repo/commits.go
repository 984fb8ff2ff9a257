package repo

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/forgehq/forge/cmd/issue/shared"
	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/forgehq/forge/internal/output"
	"github.com/spf13/cobra"
)

var commitFields = []string{"sha", "commit", "html_url", "author", "committer", "parents"}

type commitsOptions struct {
	f        *cmdutil.Factory
	repoFlag string
	limit    int
	exporter *output.Exporter
}

func newCommitsCmd(f *cmdutil.Factory) *cobra.Command {
	opts := &commitsOptions{f: f}
	cmd := &cobra.Command{
		Use:   "commits",
		Short: "List the latest commits of a repository",
		Long: `List the latest commits of the default branch, newest first: on a terminal
the short hash, the first line of the message, the author and when; piped,
one tab-separated line each with the full hash and an ISO 8601 date.`,
		Example: `  forge repo commits -R alice/demo
  forge repo commits --limit 5
  forge repo commits --limit 1 --json sha --jq '.[0].sha'`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCommits(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.repoFlag)
	cmd.Flags().IntVarP(&opts.limit, "limit", "L", shared.DefaultLimit, "List at most `N` commits")
	opts.exporter = output.AddJSONFlags(cmd, commitFields...)
	return cmd
}

func runCommits(ctx context.Context, opts *commitsOptions) error {
	if err := shared.CheckLimit(opts.limit); err != nil {
		return err
	}
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	name, err := opts.f.BaseRepo(ctx, opts.repoFlag)
	if err != nil {
		return err
	}
	c, err := opts.f.REST()
	if err != nil {
		return err
	}
	ios := opts.f.IOStreams
	tty := ios.IsStdoutTTY()
	t := output.NewTable(ios, "SHA", "MESSAGE", "AUTHOR", "DATE")
	var raw []json.RawMessage
	n := 0
	for cm, err := range c.Repos.Commits(ctx, name, shared.PerPage(opts.limit)) {
		if err != nil {
			return err
		}
		if opts.exporter.Enabled() {
			raw = append(raw, cm.RawJSON())
		} else {
			sha := cm.SHA
			if tty && len(sha) > 7 {
				sha = sha[:7]
			}
			subject, _, _ := strings.Cut(cm.Commit.Message, "\n")
			t.Add(sha, output.Yellow)
			t.Add(shared.Clean(subject), output.Bold)
			t.Add(shared.Clean(cm.Commit.Author.Name))
			t.AddTime(cm.Commit.Author.Date.Time)
			t.EndRow()
		}
		if n++; n >= opts.limit {
			break
		}
	}
	if opts.exporter.Enabled() {
		return opts.exporter.Write(ios, shared.NonNil(raw))
	}
	if n == 0 && tty {
		fmt.Fprintf(ios.ErrOut, "No commits in %s yet.\n", name)
	}
	return t.Render()
}
