package image

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/completions"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/regclient"
	"github.com/google/go-containerregistry/pkg/v1/types"
	"github.com/spf13/cobra"
)

type inspectOptions struct {
	cmdutil.Deps
	ref      string
	raw      bool
	exporter *output.Exporter
}

func newInspectCmd(f *cmdutil.Factory, runF func(context.Context, *inspectOptions) error) *cobra.Command {
	opts := &inspectOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runInspect)
	cmd := &cobra.Command{
		Use:   "inspect REF",
		Short: "Show an image's manifest or index: platforms, layers and sizes",
		Long: `Show what a reference names: an image (its platform, creation time, config
and layers with sizes) or a multi-platform index (each platform's image with
its size and layer count). --raw prints the manifest exactly as the registry
serves it (on a terminal, with control characters made visible).`,
		Example: `  forge image inspect app:1.0
  forge image inspect app:1.0 --raw | jq .
  forge image inspect app:1.0 --json platforms --jq '.platforms[].platform'`,
		ValidArgsFunction: completions.ImageRefs(f, 0),
		Args:              cmdcore.ExactArgs(1, "an image reference"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ref = args[0]
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.raw, "raw", false, "Print the raw manifest or index")
	opts.exporter = output.AddJSONFlags(cmd, "reference", "digest", "media_type", "size", "platform", "created", "config", "layers", "platforms", "manifest")
	return cmd
}

func runInspect(ctx context.Context, opts *inspectOptions) error {
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	if opts.raw && opts.exporter.Enabled() {
		return cmdcore.UsageErrorf("--raw and --json cannot be used together")
	}
	ios := opts.IO
	c, err := opts.Registry()
	if err != nil {
		return err
	}
	ref, err := c.ParseReference(opts.ref)
	if err != nil {
		return &cmdcore.UsageError{Err: err}
	}
	desc, err := c.Descriptor(ctx, ref)
	if err != nil {
		return err
	}
	if opts.raw {
		// Exact bytes for a pipe (jq, a digest check); on a terminal the
		// annotations are the registry's text like any other.
		return ios.Print(iostreams.Lines(desc.Manifest))
	}
	in, err := regclient.Inspect(ctx, ref.Name(), desc)
	if err != nil {
		return err
	}
	if opts.exporter.Enabled() {
		return opts.exporter.Write(ios, in)
	}
	return printInspection(ios.IsStdoutTTY(), opts.Deps, in)
}

func printInspection(tty bool, d cmdutil.Deps, in *regclient.Inspection) error {
	ios := d.IO
	cs := ios.ColorScheme()
	size := func(n int64) string {
		if tty {
			return text.Bytes(n)
		}
		return strconv.FormatInt(n, 10)
	}
	digest := func(d string) string {
		if tty {
			return text.ShortDigest(d)
		}
		return d
	}
	// What the registry says is an argument of ios.Printf: sanitized on a
	// terminal.
	ios.Printf("%s  %s\n", cs.Bold("Reference"), in.Reference)
	ios.Printf("%s     %s\n", cs.Bold("Digest"), in.Digest)
	ios.Printf("%s       %s\n", cs.Bold("Type"), describeType(in))
	if in.Platforms != nil {
		ios.Printf("%s       %s\n\n", cs.Bold("Size"), size(in.Size))
		t := output.NewTable(ios, "PLATFORM", "DIGEST", "SIZE", "LAYERS")
		for _, p := range in.Platforms {
			plat := p.Platform
			if plat == "" {
				plat = "-"
			}
			t.Add(plat, output.Bold)
			t.Add(digest(p.Digest))
			t.Add(size(p.Size))
			t.Add(strconv.Itoa(len(p.Layers)))
			t.EndRow()
		}
		return t.Render()
	}
	if in.Platform != "" {
		ios.Printf("%s   %s\n", cs.Bold("Platform"), in.Platform)
	}
	if in.Created != "" {
		ios.Printf("%s    %s\n", cs.Bold("Created"), in.Created)
	}
	ios.Printf("%s     %s\n", cs.Bold("Config"), in.Config)
	ios.Printf("%s       %s in %s\n\n", cs.Bold("Size"), size(in.Size), text.Count(len(in.Layers), "layer"))
	t := output.NewTable(ios, "LAYER", "SIZE", "MEDIA TYPE")
	for _, l := range in.Layers {
		t.Add(digest(l.Digest))
		t.Add(size(l.Size))
		t.Add(l.MediaType, output.Gray)
		t.EndRow()
	}
	return t.Render()
}

// describeType names a media type for people.
func describeType(in *regclient.Inspection) string {
	mt := types.MediaType(in.MediaType)
	var kind string
	switch mt {
	case types.OCIImageIndex:
		kind = "OCI image index"
	case types.DockerManifestList:
		kind = "Docker manifest list"
	case types.OCIManifestSchema1:
		kind = "OCI image manifest"
	case types.DockerManifestSchema2:
		kind = "Docker image manifest v2"
	default:
		kind = in.MediaType
	}
	if in.Platforms != nil {
		var plats []string
		for _, p := range in.Platforms {
			if p.Platform != "" {
				plats = append(plats, p.Platform)
			}
		}
		return fmt.Sprintf("%s, %d manifests: %s", kind, len(in.Platforms), strings.Join(plats, ", "))
	}
	return kind
}
