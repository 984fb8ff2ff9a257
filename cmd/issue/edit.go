package issue

import (
	"context"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/completions"
	"github.com/spf13/cobra"
)

type editOptions struct {
	cmdutil.Deps
	repoFlag string
	number   int64
	title    string
	titleSet bool
	body     bodyFlags
	exporter *output.Exporter
}

func newEditCmd(f *cmdutil.Factory, runF func(context.Context, *editOptions) error) *cobra.Command {
	opts := &editOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runEdit)
	cmd := &cobra.Command{
		Use:   "edit {NUMBER | URL}",
		Short: "Change an issue's title or body",
		Long: `Change the title (--title) or the body (--body, --body-file FILE, - for
standard input) of an issue; what is not given stays as it is.

The specification lists no endpoint for this: forge sends PATCH to the
issue, as GitHub takes it. A service without it answers 404 or 405, and
forge says the service does not offer editing issues. If the edit is
refused, a body read from standard input is kept in a file whose path forge
prints.`,
		Example: `  forge issue edit 12 --title "Crash on start with an empty config"
  forge issue edit 12 --body-file notes.md`,
		ValidArgsFunction: completions.Issues(f, "all"),
		Args:              cmdcore.ExactArgs(1, "an issue NUMBER"),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := parseNumber(args[0], &opts.repoFlag)
			if err != nil {
				return err
			}
			opts.number = n
			opts.titleSet = cmd.Flags().Changed("title")
			opts.body.bodySet = cmd.Flags().Changed("body")
			return runF(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.repoFlag)
	cmd.Flags().StringVarP(&opts.title, "title", "t", "", "The new `title`")
	opts.body.add(cmd, "The new")
	opts.exporter = output.AddJSONFlags(cmd, issueFields...)
	return cmd
}

func runEdit(ctx context.Context, opts *editOptions) error {
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	if !opts.titleSet && !opts.body.given() {
		return cmdcore.UsageErrorf("nothing to change: pass --title, --body or --body-file")
	}
	var e client.IssueEdit
	if opts.titleSet {
		t := strings.TrimSpace(opts.title)
		if t == "" {
			return cmdcore.UsageErrorf("--title is empty: an issue needs a title")
		}
		e.Title = &t
	}
	c, name, err := opts.RepoClient(ctx, opts.repoFlag)
	if err != nil {
		return err
	}
	var body *draft
	if opts.body.given() {
		if body, err = opts.body.read(ctx, opts.Deps, "issue"); err != nil {
			return err
		}
		e.Body = &body.body
	}
	is, err := c.Issues.Edit(ctx, name, opts.number, e)
	if err != nil {
		// A 404 from a missing issue says so through the spec's own GET.
		err = cmdutil.NotOffered(err, "editing issues", func() (bool, error) {
			_, gerr := c.Issues.Get(ctx, name, opts.number)
			return gerr == nil, gerr
		})
		if body != nil {
			return body.keep(err)
		}
		return err
	}
	if body != nil {
		body.sent()
	}
	ios := opts.IO
	if opts.exporter.Enabled() {
		return opts.exporter.Write(ios, is.RawJSON())
	}
	ios.ErrPrintf("%s Edited issue #%d in %s\n", ios.ErrColorScheme().SuccessIcon(), opts.number, name)
	return nil
}
