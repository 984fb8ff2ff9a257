package repo

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/forgehq/forge/cmd/issue/shared"
	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/forgehq/forge/internal/output"
	"github.com/spf13/cobra"
)

type listOptions struct {
	f        *cmdutil.Factory
	limit    int
	exporter *output.Exporter
}

func newListCmd(f *cmdutil.Factory) *cobra.Command {
	opts := &listOptions{f: f}
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List the repositories you own or collaborate on",
		Long: `List the repositories you own or collaborate on, most recently updated
first: on a terminal a table, piped one tab-separated line each (full name,
description, visibility, last update in ISO 8601).`,
		Example: `  forge repo list
  forge repo list --limit 100 --json full_name,private --jq '.[] | select(.private) | .full_name'`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runList(cmd.Context(), opts)
		},
	}
	cmd.Flags().IntVarP(&opts.limit, "limit", "L", shared.DefaultLimit, "List at most `N` repositories")
	opts.exporter = output.AddJSONFlags(cmd, repoFields...)
	return cmd
}

func runList(ctx context.Context, opts *listOptions) error {
	if err := shared.CheckLimit(opts.limit); err != nil {
		return err
	}
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	c, err := opts.f.REST()
	if err != nil {
		return err
	}
	ios := opts.f.IOStreams
	t := output.NewTable(ios, "NAME", "DESCRIPTION", "INFO", "UPDATED")
	var raw []json.RawMessage
	n := 0
	for r, err := range c.Repos.List(ctx, shared.PerPage(opts.limit)) {
		if err != nil {
			return err
		}
		if opts.exporter.Enabled() {
			raw = append(raw, r.RawJSON())
		} else {
			t.Add(r.RepoName().String(), output.Bold)
			t.Add(shared.Clean(r.Description))
			t.Add(visibility(r.Private), visibilityColor(r.Private))
			t.AddTime(r.UpdatedAt.Time)
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
		if ios.IsStdoutTTY() {
			fmt.Fprintln(ios.ErrOut, "No repositories yet; create one with `forge repo create NAME`.")
		}
		return nil
	}
	return t.Render()
}

func visibilityColor(private bool) output.Color {
	if private {
		return output.Yellow
	}
	return output.Gray
}
