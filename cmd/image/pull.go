package image

import (
	"context"
	"fmt"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/completions"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/regclient"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/spf13/cobra"
)

type pullOptions struct {
	cmdutil.Deps
	ref      string
	dest     string
	format   string
	platform string
}

func newPullCmd(f *cmdutil.Factory, runF func(context.Context, *pullOptions) error) *cobra.Command {
	opts := &pullOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runPull)
	cmd := &cobra.Command{
		Use:   "pull REF DEST [--format tarball|oci] [--platform OS/ARCH]",
		Short: "Pull an image to a tarball or an OCI layout",
		Long: `Pull an image. With --format tarball (the default) DEST is a file that
` + "`docker load`" + ` reads, or "-" for stdout; with --format oci, DEST is an OCI
image layout directory, created or added to.

From a multi-platform index, --platform picks one image. Without it, an OCI
layout gets the whole index, and a tarball the index's only image or else the
linux image of this machine's architecture.

Blobs stream to disk, so memory stays small however big the image; a tarball
is written under a temporary name and renamed when complete.`,
		Example: `  forge image pull app:1.0 app.tar
  forge image pull app:1.0 - | docker load
  forge image pull app:1.0 ./layout --format oci
  forge image pull app:1.0 app-arm.tar --platform linux/arm64`,
		ValidArgsFunction: completions.ImageRefs(f, 0),
		Args:              cmdcore.Operands("REF", "DEST"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ref, opts.dest = args[0], args[1]
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", regclient.FormatTarball, "Write a `tarball` or an oci layout")
	cmd.Flags().StringVar(&opts.platform, "platform", "", "Pick the image for `OS/ARCH[/VARIANT]` from an index")
	return cmd
}

func runPull(ctx context.Context, opts *pullOptions) error {
	if opts.format != regclient.FormatTarball && opts.format != regclient.FormatOCI {
		return cmdcore.UsageErrorf("--format must be tarball or oci, not %q", opts.format)
	}
	var plat *v1.Platform
	if opts.platform != "" {
		p, err := v1.ParsePlatform(opts.platform)
		if err != nil || p.OS == "" || p.Architecture == "" {
			return cmdcore.UsageErrorf("--platform must be OS/ARCH[/VARIANT], as linux/arm64, not %q", opts.platform)
		}
		plat = p
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
	if opts.dest == "-" && ios.IsStdoutTTY() {
		return cmdcore.UsageErrorf("refusing to write a tarball to the terminal: redirect stdout, or name a file")
	}
	prog := newByteProgress(ios, "Pulling", ref.String())
	res, err := c.Pull(ctx, ref, opts.dest, ios.Out, regclient.PullOptions{Format: opts.format, Platform: plat, Progress: prog.update})
	prog.finish()
	if err != nil {
		return err
	}
	what := res.Digest.String()
	if res.Platform != "" {
		what = res.Platform + ", " + what
	}
	if res.Images > 1 {
		what = fmt.Sprintf("index of %d, %s", res.Images, res.Digest)
	}
	dest := opts.dest
	if dest == "-" {
		dest = "stdout"
	}
	cs := ios.ErrColorScheme()
	ios.ErrPrintf("%s Pulled %s (%s) to %s: %s received\n", cs.SuccessIcon(), ref, what, dest, text.Bytes(res.Bytes))
	return nil
}
