package issue

import (
	"context"
	"fmt"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/client"
	"github.com/spf13/cobra"
)

type createOptions struct {
	cmdutil.Deps
	repoFlag string
	title    string
	body     bodyFlags
	exporter *output.Exporter
}

func newCreateCmd(f *cmdutil.Factory, runF func(context.Context, *createOptions) error) *cobra.Command {
	opts := &createOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runCreate)
	cmd := &cobra.Command{
		Use:     "create",
		Aliases: []string{"new"},
		Short:   "Open an issue",
		Long: `Open an issue with --title and a body from --body, --body-file FILE (- for
standard input) or, on a terminal, your editor ($VISUAL, $EDITOR, else nano
or vi). On a terminal a missing title is asked for; elsewhere --title is
required.

Prints the issue's web address; --json prints the whole issue, so a script
can take its number: --json number --jq .number.

If the service refuses the issue, the body you typed is kept in a file
whose path forge prints, to send again with --body-file.`,
		Example: `  forge issue create --title "Crash on start" --body "It crashes when..."
  forge issue create -t "Crash on start" -b "It crashes when..."
  forge issue create --title "Crash on start" --body-file notes.md
  forge issue create -R alice/demo --title "Crash" --json number --jq .number`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.body.bodySet = cmd.Flags().Changed("body")
			return runF(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.repoFlag)
	cmd.Flags().StringVarP(&opts.title, "title", "t", "", "The issue's `title`")
	opts.body.add(cmd, "The issue's")
	opts.exporter = output.AddJSONFlags(cmd, issueFields...)
	return cmd
}

func runCreate(ctx context.Context, opts *createOptions) error {
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	ios := opts.IO
	title := strings.TrimSpace(opts.title)
	if title == "" && !ios.CanPrompt() {
		return cmdcore.UsageErrorf("missing --title: pass --title TEXT (forge asks for it only on a terminal)")
	}
	if opts.body.bodySet && opts.body.file != "" {
		return cmdcore.UsageErrorf("--body and --body-file cannot be used together")
	}
	// Which repository, and whether forge is logged in, is settled before
	// anything is typed.
	c, name, err := opts.RepoClient(ctx, opts.repoFlag)
	if err != nil {
		return err
	}
	if title == "" {
		if title, err = opts.Prompter.Input(ctx, "Title", ""); err != nil {
			return err
		}
		if title = strings.TrimSpace(title); title == "" {
			return cmdcore.UsageErrorf("an issue needs a title")
		}
	}
	body, err := opts.body.read(ctx, opts.Deps, "issue")
	if err != nil {
		return err
	}
	is, err := c.Issues.Create(ctx, name, client.IssueCreate{Title: title, Body: body.body})
	if client.Unanswered(err) {
		// The service may have opened it before its answer was lost:
		// forge never posts again on its own (client/retry.go), and says
		// to look before the user does.
		err = fmt.Errorf("%w; the issue may have been opened all the same: look with `forge issue list -R %s` before creating it again", err, name)
	}
	if err != nil {
		return body.keep(err)
	}
	body.sent()
	if opts.exporter.Enabled() {
		return opts.exporter.Write(ios, is.RawJSON())
	}
	ios.ErrPrintf("%s Created issue #%d in %s\n", ios.ErrColorScheme().SuccessIcon(), is.Number, name)
	url := is.HTMLURL
	if url == "" {
		url = fmt.Sprintf("#%d", is.Number)
	}
	err = ios.Println(url)
	return err
}
