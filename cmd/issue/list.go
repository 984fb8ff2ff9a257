package issue

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd/issue/shared"
	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/forgehq/forge/internal/output"
	"github.com/spf13/cobra"
)

type listOptions struct {
	f        *cmdutil.Factory
	repoFlag string
	state    string
	limit    int
	exporter *output.Exporter
}

func newListCmd(f *cmdutil.Factory) *cobra.Command {
	opts := &listOptions{f: f}
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List the issues of a repository",
		Long: `List issues, newest first: open ones unless --state says closed or all. On
a terminal a table; piped, one tab-separated line each: number, title,
state, author and the ISO 8601 creation time.

Pages are fetched as they are printed and no further than --limit needs.`,
		Example: `  forge issue list -R alice/demo
  forge issue list --state all --limit 100
  forge issue list --state closed --json number,state --jq '.[].number'`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runList(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.repoFlag)
	cmd.Flags().StringVarP(&opts.state, "state", "s", "open", "Show issues in this `state`: open, closed or all")
	cmd.Flags().IntVarP(&opts.limit, "limit", "L", shared.DefaultLimit, "List at most `N` issues")
	_ = cmd.RegisterFlagCompletionFunc("state", cobra.FixedCompletions([]string{"open", "closed", "all"}, cobra.ShellCompDirectiveNoFileComp))
	opts.exporter = output.AddJSONFlags(cmd, issueFields...)
	return cmd
}

func runList(ctx context.Context, opts *listOptions) error {
	switch opts.state {
	case "open", "closed", "all":
	default:
		return cmdutil.UsageErrorf("--state must be open, closed or all, not %q", opts.state)
	}
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
	issues := c.Issues.List(ctx, name, client.IssueListOptions{ListOptions: shared.PerPage(opts.limit), State: opts.state})
	if opts.exporter.Enabled() {
		return writeJSON(opts, issues)
	}
	return writeTable(opts, name, issues)
}

// writeJSON keeps only each issue's JSON as it streams by, so a long list
// costs its text and not its decoded records.
func writeJSON(opts *listOptions, issues iter.Seq2[*client.Issue, error]) error {
	raw := make([]json.RawMessage, 0, min(opts.limit, 1024))
	for is, err := range issues {
		if err != nil {
			return err
		}
		raw = append(raw, is.RawJSON())
		if len(raw) >= opts.limit {
			break
		}
	}
	return opts.exporter.Write(opts.f.IOStreams, raw)
}

func writeTable(opts *listOptions, name client.RepoName, issues iter.Seq2[*client.Issue, error]) error {
	ios := opts.f.IOStreams
	tty := ios.IsStdoutTTY()
	t := output.NewTable(ios, "ID", "TITLE", "STATE", "AUTHOR", "CREATED")
	for is, err := range issues {
		if err != nil {
			return err
		}
		num := fmt.Sprint(is.Number)
		if tty {
			num = "#" + num
		}
		t.Add(num, stateColor(is.State))
		t.Add(shared.Clean(is.Title), output.Bold)
		t.Add(is.State, stateColor(is.State))
		t.Add(shared.Clean(is.User.Login))
		t.AddTime(is.CreatedAt.Time)
		t.EndRow()
		if t.Len() >= opts.limit {
			break
		}
	}
	what := "issue"
	if opts.state != "all" {
		what = opts.state + " issue"
	}
	if t.Len() != 1 {
		what += "s"
	}
	if t.Len() == 0 {
		if tty {
			fmt.Fprintf(ios.ErrOut, "No %s in %s\n", what, name)
		}
		return nil
	}
	if tty {
		fmt.Fprintf(ios.Out, "Showing %d %s in %s\n\n", t.Len(), what, name)
	}
	return t.Render()
}
