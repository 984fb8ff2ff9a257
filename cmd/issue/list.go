package issue

import (
	"context"
	"fmt"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd/internal/listing"
	"github.com/spf13/cobra"
)

type listOptions struct {
	cmdutil.Deps
	repoFlag string
	state    string
	author   string
	search   string
	list     listing.Flags
}

func newListCmd(f *cmdutil.Factory, runF func(context.Context, *listOptions) error) *cobra.Command {
	opts := &listOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runList)
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
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.repoFlag)
	cmd.Flags().StringVarP(&opts.author, "author", "A", "", "Only issues opened by this `login` (filtered by forge)")
	cmd.Flags().StringVarP(&opts.search, "search", "S", "", "Only issues whose title or body holds this `text`, in any case (filtered by forge)")
	cmdcore.EnumFlag(cmd, &opts.state, "state", "s", "open", []string{"open", "closed", "all"}, "Show issues in this `state`")
	opts.list.Add(cmd, listing.DefaultLimit, "issues", issueFields...)
	return cmd
}

func runList(ctx context.Context, opts *listOptions) error {
	c, name, err := opts.list.RepoClient(ctx, opts.Deps, opts.repoFlag)
	if err != nil {
		return err
	}
	ios := opts.IO
	tty := ios.IsStdoutTTY()
	// "open issue", "closed issues", "issues in alice/app": the noun
	// agrees with the number before it.
	what := func(n int) string {
		w := "issues"
		if n == 1 {
			w = "issue"
		}
		if opts.state != "all" {
			w = opts.state + " " + w
		}
		return w
	}
	tail := listing.Tail{
		IO: ios, Flags: &opts.list,
		Table:    output.NewTable(ios, "ID", "TITLE", "STATE", "AUTHOR", "CREATED"),
		What:     func(n int) string { return what(n) + " in " + name.String() },
		Filtered: opts.author != "" || opts.search != "",
	}
	if tty {
		tail.Empty = fmt.Sprintf("No %s in %s", what(0), name)
	}
	issues := listing.Filter(c.Issues.List(ctx, name, client.IssueListOptions{ListOptions: opts.list.PerPage(), State: opts.state}), opts.keep)
	t := tail.Table
	t.KeepWhole("ID")
	return listing.Show(ctx, tail, issues, func(is *client.Issue) {
		num := fmt.Sprint(is.Number)
		if tty {
			num = "#" + num
		}
		t.Add(num, stateColor(is.State))
		t.Add(is.Title, output.Bold)
		t.Add(is.State, stateColor(is.State))
		t.Add(is.User.Login)
		t.AddTime(is.CreatedAt.Time)
		t.EndRow()
	})
}

// keep applies --author and --search, which the service's issue list
// does not take.
func (opts *listOptions) keep(is *client.Issue) bool {
	if opts.author != "" && !strings.EqualFold(is.User.Login, strings.TrimPrefix(opts.author, "@")) {
		return false
	}
	q := strings.ToLower(opts.search)
	return q == "" || strings.Contains(strings.ToLower(is.Title), q) || strings.Contains(strings.ToLower(is.Body), q)
}
