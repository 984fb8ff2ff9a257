package pr

import (
	"context"
	"encoding/json"
	"fmt"

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
		Short:   "List the pull requests of a repository",
		Long: `List pull requests, newest first: open ones unless --state says closed,
merged or all (closed includes merged ones). On a terminal a table; piped,
one tab-separated line each: number, title, head branch, state and the ISO
8601 creation time.`,
		Example: `  forge pr list -R alice/demo
  forge pr list --state merged --limit 10
  forge pr list --json number,head --jq '.[] | "\(.number) \(.head.ref)"'`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runList(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.repoFlag)
	cmd.Flags().StringVarP(&opts.state, "state", "s", "open", "Show pull requests in this `state`: open, closed, merged or all")
	cmd.Flags().IntVarP(&opts.limit, "limit", "L", shared.DefaultLimit, "List at most `N` pull requests")
	_ = cmd.RegisterFlagCompletionFunc("state", cobra.FixedCompletions([]string{"open", "closed", "merged", "all"}, cobra.ShellCompDirectiveNoFileComp))
	opts.exporter = output.AddJSONFlags(cmd, pullFields...)
	return cmd
}

func runList(ctx context.Context, opts *listOptions) error {
	query := opts.state
	switch opts.state {
	case "open", "closed", "all":
	case "merged":
		query = "closed" // the service filters open/closed; merged ones are picked here
	default:
		return cmdutil.UsageErrorf("--state must be open, closed, merged or all, not %q", opts.state)
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
	ios := opts.f.IOStreams
	tty := ios.IsStdoutTTY()
	t := output.NewTable(ios, "ID", "TITLE", "BRANCH", "STATE", "CREATED")
	var raw []json.RawMessage
	n := 0
	for p, err := range c.Pulls.List(ctx, name, client.PullListOptions{ListOptions: shared.PerPage(opts.limit), State: query}) {
		if err != nil {
			return err
		}
		st := displayState(p)
		if opts.state == "merged" && st != "merged" {
			continue
		}
		if opts.exporter.Enabled() {
			raw = append(raw, p.RawJSON())
		} else {
			num := fmt.Sprint(p.Number)
			if tty {
				num = "#" + num
			}
			t.Add(num, stateColor(st))
			t.Add(shared.Clean(p.Title), output.Bold)
			t.Add(shared.Clean(p.Head.Ref), output.Cyan)
			t.Add(st, stateColor(st))
			t.AddTime(p.CreatedAt.Time)
			t.EndRow()
		}
		if n++; n >= opts.limit {
			break
		}
	}
	if opts.exporter.Enabled() {
		return opts.exporter.Write(ios, shared.NonNil(raw))
	}
	if n == 0 {
		if tty {
			fmt.Fprintf(ios.ErrOut, "No %s pull requests in %s\n", stateWord(opts.state), name)
		}
		return nil
	}
	return t.Render()
}

func stateWord(state string) string {
	if state == "all" {
		return ""
	}
	return state
}
