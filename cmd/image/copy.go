package image

import (
	"context"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/completions"
	"github.com/forgehq/forge/regclient"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/spf13/cobra"
)

type copyOptions struct {
	cmdutil.Deps
	src     string
	dst     string
	allTags bool
	jobs    int
}

func newCopyCmd(f *cmdutil.Factory, runF func(context.Context, *copyOptions) error) *cobra.Command {
	opts := &copyOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runCopy)
	cmd := &cobra.Command{
		Use:   "copy SRC DST [--all-tags]",
		Short: "Copy an image or a whole repository, within or between registries",
		Long: `Copy an image (a multi-platform index whole) from SRC to DST, registry to
registry, without going through the disk. Blobs DST already has are not sent.
A DST without a tag takes SRC's tag (or digest).

With --all-tags, SRC and DST are repositories and every tag of SRC is copied
under the same name. Each copied DST@DIGEST is printed on stdout.`,
		Example: `  forge image copy app:1.0 app:stable
  forge image copy ghcr.io/org/tool:2 tool
  forge image copy bob/shared mine --all-tags`,
		ValidArgsFunction: completions.ImageRefs(f, 0, 1),
		Args:              cmdcore.Operands("SRC", "DST"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.src, opts.dst = args[0], args[1]
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.allTags, "all-tags", false, "Copy every tag of the SRC repository")
	cmd.Flags().IntVarP(&opts.jobs, "jobs", "j", 4, "Copy `N` blobs at once")
	return cmd
}

// hasIdentifier reports whether a reference string names a tag or digest.
func hasIdentifier(s string) bool {
	if strings.Contains(s, "@") {
		return true
	}
	last := s[strings.LastIndex(s, "/")+1:]
	return strings.Contains(last, ":")
}

func runCopy(ctx context.Context, opts *copyOptions) error {
	if opts.jobs < 1 {
		return cmdcore.UsageErrorf("--jobs must be at least 1")
	}
	ios := opts.IO
	c, err := opts.Registry()
	if err != nil {
		return err
	}
	if opts.allTags {
		if hasIdentifier(opts.src) || hasIdentifier(opts.dst) {
			return cmdcore.UsageErrorf("with --all-tags, SRC and DST are repositories without :tag or @digest")
		}
	}
	var dst name.Reference
	var dstRepo name.Repository
	if hasIdentifier(opts.dst) {
		if dst, err = c.ParseReference(opts.dst); err == nil {
			dstRepo = dst.Context()
		}
	} else {
		dstRepo, err = c.ParseRepository(opts.dst)
	}
	if err != nil {
		return &cmdcore.UsageError{Err: err}
	}
	if err := c.CheckWrite(dstRepo, "push"); err != nil {
		return err
	}
	var pairs [][2]name.Reference
	if opts.allTags {
		srcRepo, err := c.ParseRepository(opts.src)
		if err != nil {
			return &cmdcore.UsageError{Err: err}
		}
		tags, _, err := c.Tags(ctx, srcRepo)
		if err != nil {
			return err
		}
		for _, t := range tags {
			pairs = append(pairs, [2]name.Reference{srcRepo.Tag(t.Name), dstRepo.Tag(t.Name)})
		}
	} else {
		src, err := c.ParseReference(opts.src)
		if err != nil {
			return &cmdcore.UsageError{Err: err}
		}
		if dst == nil {
			dst = dstRepo.Tag(src.Identifier())
			if d, ok := src.(name.Digest); ok {
				dst = dstRepo.Digest(d.DigestStr())
			}
		}
		pairs = append(pairs, [2]name.Reference{src, dst})
	}
	cs := ios.ErrColorScheme()
	for _, p := range pairs {
		prog := newByteProgress(ios, "Copying", p[0].String())
		d, err := c.Copy(ctx, p[0], p[1], regclient.CopyOptions{Jobs: opts.jobs, Progress: prog.update})
		prog.finish()
		if err != nil {
			return err
		}
		ios.ErrPrintf("%s Copied %s to %s\n", cs.SuccessIcon(), p[0], p[1])
		ios.Println(pinned(p[1], p[1].Context().Digest(d.String())))
	}
	if len(pairs) == 0 {
		ios.ErrPrintf("No tags to copy in %s.\n", opts.src)
	}
	return nil
}
