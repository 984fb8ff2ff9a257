package repo

import (
	"context"
	"fmt"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd/internal/listing"
	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/forgehq/forge/internal/output"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
)

type listOptions struct {
	f    *cmdutil.Factory
	list listing.Flags
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
	opts.list.Add(cmd, listing.DefaultLimit, "repositories", repoFields...)
	return cmd
}

func runList(ctx context.Context, opts *listOptions) error {
	if err := opts.list.Validate(); err != nil {
		return err
	}
	c, err := opts.f.REST()
	if err != nil {
		return err
	}
	ios := opts.f.IOStreams
	t := output.NewTable(ios, "NAME", "DESCRIPTION", "INFO", "UPDATED")
	n, err := listing.Drain(ios, &opts.list, c.Repos.List(ctx, opts.list.PerPage()), func(r *client.Repo) {
		t.Add(r.RepoName().String(), output.Bold)
		t.Add(text.OneLine(r.Description))
		t.Add(visibility(r.Private), visibilityColor(r.Private))
		t.AddTime(r.UpdatedAt.Time)
		t.EndRow()
	})
	if err != nil || opts.list.Exporter.Enabled() {
		return err
	}
	if n == 0 {
		if ios.IsStdoutTTY() {
			fmt.Fprintln(ios.ErrOut, "No repositories yet; create one with `forge repo create NAME`.")
		}
		return nil
	}
	if err := t.Render(); err != nil {
		return err
	}
	opts.list.NoteCut(ctx, ios, n)
	return nil
}

func visibilityColor(private bool) output.Color {
	if private {
		return output.Yellow
	}
	return output.Gray
}
