package release

import (
	"context"
	"fmt"
	"time"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd/internal/listing"
	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/forgehq/forge/internal/output"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
)

type listOptions struct {
	f        *cmdutil.Factory
	repoFlag string
	list     listing.Flags
}

func newListCmd(f *cmdutil.Factory) *cobra.Command {
	opts := &listOptions{f: f}
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
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runList(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.repoFlag)
	opts.list.Add(cmd, listing.DefaultLimit, "releases", releaseFields...)
	return cmd
}

func runList(ctx context.Context, opts *listOptions) error {
	if err := opts.list.Validate(); err != nil {
		return err
	}
	c, name, err := opts.f.RepoClient(ctx, opts.repoFlag)
	if err != nil {
		return err
	}
	ios := opts.f.IOStreams
	t := output.NewTable(ios, "TITLE", "TYPE", "TAG NAME", "PUBLISHED")
	latestSeen := false
	n, err := listing.Drain(ios, &opts.list, c.Releases.List(ctx, name, opts.list.PerPage()), func(r *client.Release) {
		kind, color := releaseType(r, &latestSeen)
		title := r.Name
		if title == "" {
			title = r.TagName
		}
		t.Add(text.OneLine(title), output.Bold)
		t.Add(kind, color)
		t.Add(text.OneLine(r.TagName), output.Cyan)
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
	if err != nil || opts.list.Exporter.Enabled() {
		return err
	}
	if n == 0 {
		if ios.IsStdoutTTY() {
			fmt.Fprintf(ios.ErrOut, "No releases in %s\n", name)
		}
		return nil
	}
	if err := t.Render(); err != nil {
		return err
	}
	opts.list.NoteCut(ctx, ios, n)
	return nil
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
