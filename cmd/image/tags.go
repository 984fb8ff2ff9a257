package image

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/completions"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/regclient"
	"github.com/google/go-containerregistry/pkg/v1/types"
	"github.com/spf13/cobra"
)

type tagsOptions struct {
	cmdutil.Deps
	repo     string
	exporter *output.Exporter
}

func newTagsCmd(f *cmdutil.Factory, runF func(context.Context, *tagsOptions) error) *cobra.Command {
	opts := &tagsOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runTags)
	cmd := &cobra.Command{
		Use:   "tags REPO",
		Short: "List the tags of a repository",
		Long: `List a repository's tags, each with its digest and SIZE: the size of the
image it names, its config and layers as stored (compressed), read from the
manifests. For a multi-platform index SIZE is the sum over its images, with
their count ("12.5 MiB, 2 platforms"; piped: the sum in bytes). On the
service's registry each tag also shows its last update.

--json gives each tag's fields as the registry sent them (the service's
"size" is the manifest's own size) plus image_size and platforms.`,
		Example: `  forge image tags app
  forge image tags bob/tool --json name,digest,image_size
  forge image tags app | cut -f1`,
		ValidArgsFunction: completions.ImageRepos(f),
		Args:              cmdcore.ExactArgs(1, "a repository, as app or USER/app"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.repo = args[0]
			return runF(cmd.Context(), opts)
		},
	}
	opts.exporter = output.AddJSONFlags(cmd, "name", "digest", "media_type", "size", "updated_at", "image_size", "platforms")
	return cmd
}

func runTags(ctx context.Context, opts *tagsOptions) error {
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	ios := opts.IO
	c, err := opts.Registry()
	if err != nil {
		return err
	}
	repo, err := c.ParseRepository(opts.repo)
	if err != nil {
		return &cmdcore.UsageError{Err: err}
	}
	tags, raw, err := c.Tags(ctx, repo)
	if err != nil {
		return err
	}
	// Image sizes cost a manifest read per digest: only when shown.
	if len(tags) > 0 && (!opts.exporter.Enabled() || opts.exporter.Wants("image_size", "platforms", "digest", "media_type")) {
		if err := c.Sizes(ctx, repo, tags); err != nil {
			return err
		}
		if opts.exporter.Enabled() {
			raw = withSizes(raw, tags)
		}
	}
	if opts.exporter.Enabled() {
		if raw == nil {
			raw = []json.RawMessage{}
		}
		return opts.exporter.Write(ios, raw)
	}
	if len(tags) == 0 {
		if ios.IsStdoutTTY() {
			ios.ErrPrintf("No tags in %s.\n", repo)
		}
		return nil
	}
	dated := !tags[0].UpdatedAt.IsZero()
	cols := []string{"TAG", "DIGEST", "SIZE"}
	if dated {
		cols = append(cols, "UPDATED")
	}
	t := output.NewTable(ios, cols...)
	for _, tg := range tags {
		t.Add(tg.Name, output.Bold)
		if ios.IsStdoutTTY() {
			t.Add(text.ShortDigest(tg.Digest))
			t.Add(sizeText(tg))
		} else {
			t.Add(tg.Digest)
			t.Add(strconv.FormatInt(tg.ImageSize, 10))
		}
		if dated {
			t.AddTime(tg.UpdatedAt)
		}
		t.EndRow()
	}
	return t.Render()
}

// sizeText is a tag's SIZE on a terminal: "4.0 MiB", or for an index
// "8.0 MiB, 2 platforms".
func sizeText(t regclient.Tag) string {
	switch {
	case t.Digest == "":
		return "" // deleted while listed
	case t.MediaType != "" && types.MediaType(t.MediaType).IsIndex():
		return text.Bytes(t.ImageSize) + ", " + text.Count(t.Platforms, "platform")
	}
	return text.Bytes(t.ImageSize)
}

// withSizes adds image_size and platforms to each tag's JSON as the
// registry sent it, and the digest and media type where it sent none.
func withSizes(raw []json.RawMessage, tags []regclient.Tag) []json.RawMessage {
	byName := map[string]regclient.Tag{}
	for _, t := range tags {
		byName[t.Name] = t
	}
	out := make([]json.RawMessage, 0, len(raw))
	for _, r := range raw {
		var m map[string]json.RawMessage
		if json.Unmarshal(r, &m) != nil || m == nil {
			out = append(out, r) // a bare string: passed as sent
			continue
		}
		var name string
		if json.Unmarshal(m["name"], &name) != nil || name == "" {
			json.Unmarshal(m["tag"], &name)
		}
		if t, ok := byName[name]; ok && t.Digest != "" {
			m["image_size"] = json.RawMessage(strconv.FormatInt(t.ImageSize, 10))
			m["platforms"] = json.RawMessage(strconv.Itoa(t.Platforms))
			for k, v := range map[string]string{"digest": t.Digest, "media_type": t.MediaType} {
				if _, sent := m[k]; !sent {
					m[k], _ = json.Marshal(v)
				}
			}
		}
		b, err := json.Marshal(m)
		if err != nil {
			b = r
		}
		out = append(out, b)
	}
	return out
}
