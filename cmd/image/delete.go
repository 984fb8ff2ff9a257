package image

import (
	"context"
	"fmt"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/cmd/internal/confirm"
	"github.com/forgehq/forge/completions"
	"github.com/forgehq/forge/internal/text"
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
	runF = cmdutil.Seam(runF, runDelete)
	cmd := &cobra.Command{
		Use:     "delete REF [--yes]",
		Aliases: []string{"rm"},
		Short:   "Delete a tag or an image from the registry",
		Long: `Delete what REF names. A tag (app:1.0) is deleted alone where the registry
can delete tags (OCI distribution 1.1; the service's registry can): its
manifest stays, with every other tag naming it.

Where the registry cannot (it answers 400 or 405, as docker-registry 2.8
does), the tag goes only with its manifest, and deleting the manifest
removes every tag naming it. When other tags name it, forge lists them and
asks first; --yes deletes without asking, and without a terminal it is
required. REF@DIGEST deletes that manifest and its tags, asking the same
way. Layers stay in storage: the registry collects no garbage.`,
		Example: `  forge image delete app:1.0
  forge image delete app@sha256:4f2c... --yes`,
		ValidArgsFunction: completions.ImageRefs(f, 0),
		Args:              cmdutil.ExactArgs(1, "an image reference"),
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
	c, err := opts.Registry()
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
	cs := ios.ErrColorScheme()
	tag, isTag := ref.(name.Tag)
	if isTag {
		deleted, err := c.DeleteTag(ctx, tag)
		if err != nil {
			return err
		}
		if deleted {
			fmt.Fprintf(ios.ErrOut, "%s Deleted the tag %s (its manifest and other tags stay)\n", cs.SuccessIcon(), tag)
			return nil
		}
	}
	plan, err := c.PlanDelete(ctx, ref)
	if err != nil {
		return err
	}
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
	if others > 0 && !opts.yes {
		cause := ""
		if isTag {
			cause = fmt.Sprintf("the registry %s cannot delete a tag alone: ", ref.Context().RegistryStr())
		}
		if !ios.CanPrompt() {
			return cmdutil.UsageErrorf("%sdeleting %s removes the manifest %s and %s: pass --yes to delete them all", cause, opts.ref, plan.Digest.DigestStr(), what)
		}
		fmt.Fprintf(ios.ErrOut, "%sdeleting %s removes the manifest %s and %s.\n", text.Capitalize(cause), ref, plan.Digest.DigestStr(), what)
		if err := confirm.YesNo(ctx, opts.Deps, "Delete?"); err != nil {
			return err
		}
	}
	if err := c.Delete(ctx, plan.Digest); err != nil {
		return err
	}
	fmt.Fprintf(ios.ErrOut, "%s Deleted %s (%s)\n", cs.SuccessIcon(), plan.Digest, what)
	return nil
}
