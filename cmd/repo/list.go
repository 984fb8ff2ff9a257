package repo

import (
	"context"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd/internal/listing"
	"github.com/spf13/cobra"
)

type listOptions struct {
	cmdutil.Deps
	list       listing.Flags
	visibility string
}

func newListCmd(f *cmdutil.Factory, runF func(context.Context, *listOptions) error) *cobra.Command {
	opts := &listOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runList)
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List the repositories you own or collaborate on",
		Long: `List the repositories you own or collaborate on, most recently updated
first: on a terminal a table, piped one tab-separated line each (full name,
description, visibility, last update in ISO 8601).`,
		Example: `  forge repo list
  forge repo list --limit 100 --json full_name,private --jq '.[] | select(.private) | .full_name'`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), opts)
		},
	}
	cmdcore.EnumFlag(cmd, &opts.visibility, "visibility", "", "", []string{"public", "private"}, "Only repositories of this `visibility` (filtered by forge)")
	opts.list.Add(cmd, listing.DefaultLimit, "repositories", repoFields...)
	return cmd
}

func runList(ctx context.Context, opts *listOptions) error {
	c, err := opts.list.REST(opts.Deps)
	if err != nil {
		return err
	}
	ios := opts.IO
	t := output.NewTable(ios, "NAME", "DESCRIPTION", "INFO", "UPDATED")
	t.KeepWhole("NAME")
	return listing.Show(ctx, listing.Tail{IO: ios, Flags: &opts.list, Table: t, Filtered: opts.visibility != "", Empty: "No repositories yet; create one with `forge repo create NAME`."}, listing.Filter(c.Repos.List(ctx, opts.list.PerPage()), func(r *client.Repo) bool {
		return opts.visibility == "" || visibility(r.Private) == opts.visibility
	}), func(r *client.Repo) {
		t.Add(r.RepoName().String(), output.Bold)
		t.Add(r.Description)
		t.Add(visibility(r.Private), visibilityColor(r.Private))
		t.AddTime(r.UpdatedAt.Time)
		t.EndRow()
	})
}

func visibilityColor(private bool) output.Color {
	if private {
		return output.Yellow
	}
	return output.Gray
}
