package image

import (
	"context"
	"fmt"
	"strings"

	"github.com/forgehq/forge/cmd/internal/confirm"
	"github.com/forgehq/forge/completions"
	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/spf13/cobra"
)

type deleteOptions struct {
	f   *cmdutil.Factory
	ref string
	yes bool
}

func newDeleteCmd(f *cmdutil.Factory) *cobra.Command {
	opts := &deleteOptions{f: f}
	cmd := &cobra.Command{
		Use:     "delete REF [--yes]",
		Aliases: []string{"rm"},
		Short:   "Delete an image from the registry",
		Long: `Delete the manifest REF names. A tag is resolved to its digest first, and
deleting the digest removes every tag that points at it: forge lists them and
asks before deleting (--yes skips the question; without a terminal it is
required). Layers stay in storage: the registry collects no garbage.`,
		Example: `  forge image delete app:1.0
  forge image delete app@sha256:4f2c... --yes`,
		ValidArgsFunction: completions.ImageRefs(f, 0),
		Args:              cmdutil.ExactArgs(1, "an image reference"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ref = args[0]
			return runDelete(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVarP(&opts.yes, "yes", "y", false, "Delete without asking")
	return cmd
}

func runDelete(ctx context.Context, opts *deleteOptions) error {
	f := opts.f
	ios := f.IOStreams
	c, err := f.Registry()
	if err != nil {
		return err
	}
	ref, err := c.ParseReference(opts.ref)
	if err != nil {
		return &cmdutil.UsageError{Err: err}
	}
	if err := c.CheckWrite(ref.Context(), "delete"); err != nil {
		return err
	}
	if err := confirm.Possible(ios, opts.yes, opts.ref); err != nil {
		return err
	}
	plan, err := c.PlanDelete(ctx, ref)
	if err != nil {
		return err
	}
	what := "no tags"
	switch len(plan.Tags) {
	case 0:
	case 1:
		what = "the tag " + plan.Tags[0]
	default:
		what = "the tags " + strings.Join(plan.Tags, ", ")
	}
	cs := ios.ErrColorScheme()
	fmt.Fprintf(ios.ErrOut, "Deleting %s removes the manifest %s and %s.\n", ref, plan.Digest.DigestStr(), what)
	if !opts.yes {
		if err := confirm.YesNo(ctx, f, "Delete?"); err != nil {
			return err
		}
	}
	if err := c.Delete(ctx, plan.Digest); err != nil {
		return err
	}
	fmt.Fprintf(ios.ErrOut, "%s Deleted %s (%s)\n", cs.SuccessIcon(), plan.Digest, what)
	return nil
}
