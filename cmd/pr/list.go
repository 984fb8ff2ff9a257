package pr

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
	list     listing.Flags
}

func newListCmd(f *cmdutil.Factory, runF func(context.Context, *listOptions) error) *cobra.Command {
	opts := &listOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runList)
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List the pull requests of a repository",
		Long: `List pull requests, newest first: open ones unless --state says closed,
merged or all (closed includes merged ones). On a terminal a table; piped,
one tab-separated line each: number, title, head branch, state and the ISO
8601 creation time.`,
		Example: `  forge pr list -R alice/demo
  forge pr list --state merged --limit 10
  forge pr list --json number,head --jq '.[] | "\(.number) \(.head.ref)"'`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.repoFlag)
	cmdcore.EnumFlag(cmd, &opts.state, "state", "s", "open", []string{"open", "closed", "merged", "all"}, "Show pull requests in this `state`")
	opts.list.Add(cmd, listing.DefaultLimit, "pull requests", pullFields...)
	return cmd
}

func runList(ctx context.Context, opts *listOptions) error {
	c, name, err := opts.list.RepoClient(ctx, opts.Deps, opts.repoFlag)
	if err != nil {
		return err
	}
	ios := opts.IO
	tty := ios.IsStdoutTTY()
	t := output.NewTable(ios, "ID", "TITLE", "BRANCH", "STATE", "CREATED")
	t.KeepWhole("ID")
	pulls := c.Pulls.List(ctx, name, client.PullListOptions{ListOptions: opts.list.PerPage(), State: opts.state})
	return listing.Show(ctx, listing.Tail{IO: ios, Flags: &opts.list, Table: t, In: name.String(), What: func(n int) string { return pullsNoun(opts.state, n) + " in " + name.String() }, Empty: "No " + pullsNoun(opts.state, 0) + " in " + name.String()}, pulls, func(p *client.PullRequest) {
		st := p.StateWord()
		num := fmt.Sprint(p.Number)
		if tty {
			num = "#" + num
		}
		t.Add(num, stateColor(st))
		t.Add(p.Title, output.Bold)
		t.Add(p.Head.Ref, output.Cyan)
		t.Add(st, stateColor(st))
		t.AddTime(p.CreatedAt.Time)
		t.EndRow()
	})
}

func stateWord(state string) string {
	if state == "all" {
		return ""
	}
	return state
}

// pullsNoun names n pull requests of the state asked for: "open pull
// requests", "1 merged pull request" without its number.
func pullsNoun(state string, n int) string {
	noun := "pull requests"
	if n == 1 {
		noun = "pull request"
	}
	return strings.TrimSpace(stateWord(state) + " " + noun)
}
