package image

import (
	"context"
	"fmt"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/cmd/internal/confirm"
	"github.com/forgehq/forge/completions"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/regclient"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/spf13/cobra"
)

type deleteOptions struct {
	cmdutil.Deps
	ref string
	yes bool
}

func newDeleteCmd(f *cmdutil.Factory, runF func(context.Context, *deleteOptions) error) *cobra.Command {
	opts := &deleteOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runDelete)
	cmd := &cobra.Command{
		Use:     "delete REF [--yes]",
		Aliases: []string{"rm"},
		Short:   "Delete a tag or an image from the registry",
		Long: `Delete what REF names, after asking on a terminal; --yes deletes without
asking, and without a terminal it is required, as for every delete.

A tag (app:1.0) is deleted alone where the registry can delete tags (OCI
distribution 1.1; the service's registry can): its manifest stays, with
every other tag naming it. Where the registry cannot (it answers 400 or
405, as docker-registry 2.8 does), the tag goes only with its manifest, and
deleting the manifest removes every tag naming it: when other tags name
it, forge lists them and asks again. REF@DIGEST deletes that manifest and
its tags, naming them in the question. Layers stay in storage: the registry
collects no garbage.`,
		Example: `  forge image delete app:1.0
  forge image delete app@sha256:4f2c... --yes`,
		ValidArgsFunction: completions.ImageRefs(f, 0),
		Args:              cmdcore.ExactArgs(1, "an image reference"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ref = args[0]
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVarP(&opts.yes, "yes", "y", false, "Delete without asking")
	return cmd
}

func runDelete(ctx context.Context, opts *deleteOptions) error {
	ios := opts.IO
	// As every delete: a script says yes itself, before any request.
	if err := confirm.Possible(ios, opts.yes, opts.ref); err != nil {
		return err
	}
	c, err := opts.Registry()
	if err != nil {
		return err
	}
	ref, err := c.ParseReference(opts.ref)
	if err != nil {
		return &cmdcore.UsageError{Err: err}
	}
	if err := c.CheckWrite(ref.Context(), "delete"); err != nil {
		return err
	}
	cs := ios.ErrColorScheme()
	tag, isTag := ref.(name.Tag)
	if isTag {
		if !opts.yes {
			// Read first, so a mistyped tag fails before the question.
			if _, err := c.Descriptor(ctx, tag); err != nil {
				return err
			}
			if err := confirm.YesNo(ctx, opts.Deps, fmt.Sprintf("Delete the tag %s?", text.OneLine(tag.String()))); err != nil {
				return err
			}
		}
		deleted, err := c.DeleteTag(ctx, tag)
		if err != nil {
			return err
		}
		if deleted {
			ios.ErrPrintf("%s Deleted the tag %s (its manifest and other tags stay)\n", cs.SuccessIcon(), tag)
			return nil
		}
	}
	return deleteManifest(ctx, opts, c, ref)
}

// deleteManifest deletes the manifest ref names, with every tag naming
// it: for a digest, or for a tag where the registry cannot delete a tag
// alone. It asks first (without --yes) when the manifest takes more than
// the tag the user agreed to delete.
func deleteManifest(ctx context.Context, opts *deleteOptions, c *regclient.Client, ref name.Reference) error {
	ios := opts.IO
	plan, err := c.PlanDelete(ctx, ref)
	if err != nil {
		return err
	}
	tag, isTag := ref.(name.Tag)
	others := 0 // tags the manifest takes along besides the one named
	for _, t := range plan.Tags {
		if !isTag || t != tag.TagStr() {
			others++
		}
	}
	what := "no tags"
	switch len(plan.Tags) {
	case 0:
	case 1:
		what = "the tag " + text.OneLine(plan.Tags[0])
	default:
		what = "the tags " + text.OneLine(strings.Join(plan.Tags, ", "))
	}
	if !opts.yes && (others > 0 || !isTag) {
		cause := ""
		if isTag {
			cause = fmt.Sprintf("the registry %s cannot delete a tag alone: ", ref.Context().RegistryStr())
		}
		ios.ErrPrintf("%sdeleting %s removes the manifest %s and %s.\n", text.Capitalize(cause), ref, plan.Digest.DigestStr(), what)
		if err := confirm.YesNo(ctx, opts.Deps, "Delete?"); err != nil {
			return err
		}
	}
	if err := c.Delete(ctx, plan.Digest); err != nil {
		return err
	}
	ios.ErrPrintf("%s Deleted %s (%s)\n", ios.ErrColorScheme().SuccessIcon(), plan.Digest, what)
	return nil
}
