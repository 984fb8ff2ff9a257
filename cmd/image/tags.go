package image

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/forgehq/forge/completions"
	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/forgehq/forge/internal/output"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
)

type tagsOptions struct {
	f        *cmdutil.Factory
	repo     string
	exporter *output.Exporter
}

func newTagsCmd(f *cmdutil.Factory) *cobra.Command {
	opts := &tagsOptions{f: f}
	cmd := &cobra.Command{
		Use:   "tags REPO",
		Short: "List the tags of a repository",
		Long: `List a repository's tags. On the service's registry each tag comes with its
digest, size and last update; on other registries, only its name.`,
		Example: `  forge image tags app
  forge image tags bob/tool --json name,digest
  forge image tags app | cut -f1`,
		ValidArgsFunction: completions.ImageRepos(f),
		Args:              cmdutil.ExactArgs(1, "a repository, as app or USER/app"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.repo = args[0]
			return runTags(cmd.Context(), opts)
		},
	}
	opts.exporter = output.AddJSONFlags(cmd, "name", "digest", "media_type", "size", "updated_at")
	return cmd
}

func runTags(ctx context.Context, opts *tagsOptions) error {
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	f := opts.f
	ios := f.IOStreams
	c, err := f.Registry()
	if err != nil {
		return err
	}
	repo, err := c.ParseRepository(opts.repo)
	if err != nil {
		return &cmdutil.UsageError{Err: err}
	}
	tags, raw, err := c.Tags(ctx, repo)
	if err != nil {
		return err
	}
	if opts.exporter.Enabled() {
		if raw == nil {
			raw = []json.RawMessage{}
		}
		return opts.exporter.Write(ios, raw)
	}
	if len(tags) == 0 {
		if ios.IsStdoutTTY() {
			ios.ErrOut.Write([]byte("No tags in " + repo.String() + ".\n"))
		}
		return nil
	}
	rich := tags[0].Digest != ""
	if !rich {
		t := output.NewTable(ios, "TAG")
		for _, tg := range tags {
			t.Add(tg.Name, output.Bold)
			t.EndRow()
		}
		return t.Render()
	}
	t := output.NewTable(ios, "TAG", "DIGEST", "SIZE", "UPDATED")
	for _, tg := range tags {
		t.Add(tg.Name, output.Bold)
		if ios.IsStdoutTTY() {
			t.Add(text.ShortDigest(tg.Digest))
			t.Add(text.Bytes(tg.Size))
		} else {
			t.Add(tg.Digest)
			t.Add(strconv.FormatInt(tg.Size, 10))
		}
		t.AddTime(tg.UpdatedAt)
		t.EndRow()
	}
	return t.Render()
}
