package image

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/completions"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/regclient"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/spf13/cobra"
)

type pushOptions struct {
	cmdutil.Deps
	src  string
	ref  string
	jobs int
}

func newPushCmd(f *cmdutil.Factory, runF func(context.Context, *pushOptions) error) *cobra.Command {
	opts := &pushOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runPush)
	cmd := &cobra.Command{
		Use:   "push SRC REF",
		Short: "Push a docker tarball, an OCI layout or a directory of files to the registry",
		Long: `Push an image to the registry. SRC is a ` + "`docker save`" + ` tarball, an OCI
image layout directory, or "-" for a tarball on stdin. A layout holding a
multi-platform index is pushed whole, every platform kept; a layout listing
several manifests is pushed as one index of them.

Any other directory is pushed as an image of one layer holding its files,
hidden ones too (the directory is the image's /), with no docker needed:
an OCI linux image for this machine's architecture, with no entrypoint. The
layer is made the same way every time (entries sorted, times and owners
fixed, modes kept), so the same files give the same digest wherever they
were copied, and pushing them again sends nothing. A directory is an OCI
layout when it holds an oci-layout file, or index.json beside blobs/.

Layers the registry already has are not sent, so a push that was interrupted
sends only what is missing when run again, and pushing an image the registry
has costs one request. A layer stopped midway (Ctrl-C, a lost connection)
resumes where the registry says its bytes end, not from byte 0 (the upload's
address is kept in the cache directory until the layer is pushed). Layers
upload --jobs at a time.

The pushed REF@DIGEST is printed on stdout; progress goes to stderr (a live
display on a terminal, one line per layer otherwise).`,
		Example: `  forge image push ./site hello:1.0        # a directory of files, no docker needed
  forge image push app.tar app:1.0
  docker save app:1.0 | forge image push - app:1.0
  forge image push ./oci-layout app:1.0 --jobs 8
  forge image push app.tar registry.example.com/team/app:1.0`,
		ValidArgsFunction: completions.ImageRefs(f, 1),
		Args:              cmdcore.Operands("SRC", "REF"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.src, opts.ref = args[0], args[1]
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().IntVarP(&opts.jobs, "jobs", "j", 4, "Upload `N` layers at once")
	return cmd
}

func runPush(ctx context.Context, opts *pushOptions) error {
	if opts.jobs < 1 {
		return cmdcore.UsageErrorf("--jobs must be at least 1")
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
	// Refused before reading the source or sending anything.
	if err := c.CheckWrite(ref.Context(), "push"); err != nil {
		return err
	}
	src, err := regclient.OpenAny(opts.src, regclient.OpenOptions{Stdin: ios.In, Context: ctx, DigestCache: digestCacheDir(opts.Deps)})
	if err != nil {
		// A missing local file is bad input (exit 2), as for ssh-key add.
		if errors.Is(err, fs.ErrNotExist) {
			return cmdcore.UsageErrorf("no such file: %s", opts.src)
		}
		return err
	}
	defer src.Close()
	start := time.Now()
	prog := newPushProgress(ios, ref.String())
	res, err := c.Push(ctx, src, ref, regclient.PushOptions{Jobs: opts.jobs, Progress: prog.event})
	prog.finish()
	if err != nil {
		return err
	}
	cs := ios.ErrColorScheme()
	if res.Unchanged {
		ios.ErrPrintf("%s %s: already pushed: same manifest, nothing sent\n", cs.SuccessIcon(), ref)
		ios.Println(pinned(ref, res.Ref))
		return nil
	}
	ios.ErrPrintf("%s Pushed %s: %s, %d sent (%s) in %s\n", cs.SuccessIcon(), ref, text.Count(res.Layers, "layer"), res.Sent,
		text.Bytes(res.Bytes), time.Since(start).Round(time.Millisecond))
	ios.Println(pinned(ref, res.Ref))
	return nil
}

// digestCacheDir is where tarballs' layer digests are remembered:
// CACHE/forge/layer-digests; "" (no cache) without a home.
func digestCacheDir(d cmdutil.Deps) string {
	dir := d.CacheDir()
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "layer-digests")
}

// pinned is REF@DIGEST: the tag kept for people, the digest for machines.
func pinned(ref name.Reference, d name.Digest) string {
	if tag, ok := ref.(name.Tag); ok {
		return tag.Name() + "@" + d.DigestStr()
	}
	return d.Name()
}
