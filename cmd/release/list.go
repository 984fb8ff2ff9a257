package release

import (
	"context"
	"fmt"
	"time"

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
	list     listing.Flags
}

func newListCmd(f *cmdutil.Factory, runF func(context.Context, *listOptions) error) *cobra.Command {
	opts := &listOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runList)
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List the releases of a repository",
		Long: `List releases, newest first: title, type (Latest for the newest full
release, Draft, Pre-release), tag and publication time. Piped, one
tab-separated line each. Drafts are listed only to those who may write to
the repository.`,
		Example: `  forge release list -R alice/demo
  forge release list --limit 1 --json tag_name --jq '.[0].tag_name'`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.repoFlag)
	opts.list.Add(cmd, listing.DefaultLimit, "releases", releaseFields...)
	return cmd
}

func runList(ctx context.Context, opts *listOptions) error {
	c, name, err := opts.list.RepoClient(ctx, opts.Deps, opts.repoFlag)
	if err != nil {
		return err
	}
	ios := opts.IO
	t := output.NewTable(ios, "TITLE", "TYPE", "TAG NAME", "PUBLISHED")
	t.KeepWhole("TAG NAME")
	latestSeen := false
	return listing.Show(ctx, listing.Tail{IO: ios, Flags: &opts.list, Table: t, In: name.String(), Empty: fmt.Sprintf("No releases in %s", name)}, c.Releases.List(ctx, name, opts.list.PerPage()), func(r *client.Release) {
		kind, color := releaseType(r, &latestSeen)
		title := r.Name
		if title == "" {
			title = r.TagName
		}
		t.Add(title, output.Bold)
		t.Add(kind, color)
		t.Add(r.TagName, output.Cyan)
		// A draft is not published: no time in that column. A release
		// without published_at shows when it was made.
		var published time.Time
		if !r.Draft {
			published = r.PublishedAt.Time
			if published.IsZero() {
				published = r.CreatedAt.Time
			}
		}
		t.AddTime(published)
		t.EndRow()
	})
}

// releaseType names a release's kind; the first full release of the list
// (newest first) is the latest.
func releaseType(r *client.Release, latestSeen *bool) (string, output.Color) {
	switch {
	case r.Draft:
		return "Draft", output.Red
	case r.Prerelease:
		return "Pre-release", output.Yellow
	case !*latestSeen:
		*latestSeen = true
		return "Latest", output.Green
	}
	return "", output.Plain
}
