package issue

import (
	"context"
	"fmt"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/completions"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
)

// stateOptions are what `issue close` and `issue reopen` use.
type stateOptions struct {
	cmdutil.Deps
	repoFlag string
	number   int64
	want     string // "closed" or "open"
	comment  string
}

// newCloseCmd returns `forge issue close`.
func newCloseCmd(f *cmdutil.Factory, runF func(context.Context, *stateOptions) error) *cobra.Command {
	return withState(f, &cobra.Command{
		Use:   "close NUMBER",
		Short: "Close an issue",
		Long: `Close the issue, with a comment from --comment if given: the comment first,
then the state, so a comment the service refuses leaves the issue open. An
issue that is already closed stays as it is: forge says so, posts no
--comment and exits 0, as the issue is in the state you asked for (a CI
step run again adds no second comment).
Needs write permission on the repository, unless you opened the issue.`,
		Example: `  forge issue close 12
  forge issue close 12 -R alice/demo --comment "Done in v1.2"`,
	}, "closed", runF)
}

// newReopenCmd returns `forge issue reopen`.
func newReopenCmd(f *cmdutil.Factory, runF func(context.Context, *stateOptions) error) *cobra.Command {
	return withState(f, &cobra.Command{
		Use:   "reopen NUMBER",
		Short: "Reopen a closed issue",
		Long: `Reopen the issue, with a comment from --comment if given (the comment
first). An issue that is already open stays as it is: forge says so and
exits 0 without posting the --comment, as the issue is in the state you
asked for. Needs write permission on the repository, unless you opened the
issue.`,
		Example: `  forge issue reopen 12
  forge issue reopen 12 -R alice/demo --comment "Done in v1.2"`,
	}, "open", runF)
}

// withState completes close or reopen: both set the issue's state to want.
func withState(f *cmdutil.Factory, cmd *cobra.Command, want string, runF func(context.Context, *stateOptions) error) *cobra.Command {
	opts := &stateOptions{Deps: f.Deps(), want: want}
	runF = cmdcore.Seam(runF, runState)
	cmd.ValidArgsFunction = completions.IssuesNotIn(f, want)
	cmd.Args = cmdcore.ExactArgs(1, "an issue NUMBER")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		n, err := parseNumber(args[0], &opts.repoFlag)
		if err != nil {
			return err
		}
		opts.number = n
		return runF(cmd.Context(), opts)
	}
	cmdutil.AddRepoFlag(cmd, &opts.repoFlag)
	cmd.Flags().StringVarP(&opts.comment, "comment", "c", "", "Also add a comment with this `text`")
	return cmd
}

// runState comments (with --comment), then sets the issue's state.
func runState(ctx context.Context, opts *stateOptions) error {
	c, name, err := opts.RepoClient(ctx, opts.repoFlag)
	if err != nil {
		return err
	}
	// The service answers 200 whether or not the state changed, so forge
	// reads the issue first to tell the user which it was.
	is, err := c.Issues.Get(ctx, name, opts.number)
	if err != nil {
		return err
	}
	ios := opts.IO
	cs := ios.ErrColorScheme()
	past := map[string]string{"closed": "Closed", "open": "Reopened"}[opts.want]
	title := text.OneLine(is.Title)
	// A state that already holds is the end, as gh's: a --comment is
	// not posted, so a CI step run again piles up no duplicates.
	if is.State == opts.want {
		note := ""
		if opts.comment != "" {
			note = "; the comment was not posted"
		}
		ios.ErrPrintf("%s Issue #%d (%s) is already %s%s\n", cs.WarningIcon(), is.Number, title, opts.want, note)
		return nil
	}
	// The comment first, then the state, as gh does: a comment the
	// service refuses leaves the issue as it was (and the text in the
	// shell's history), never closed without its explanation.
	if opts.comment != "" {
		if _, err := c.Issues.Comment(ctx, name, opts.number, opts.comment); err != nil {
			return fmt.Errorf("adding the comment (the issue is left %s): %w", is.State, mayHavePosted(err, opts.number, name))
		}
		ios.ErrPrintf("%s Commented on issue #%d\n", cs.SuccessIcon(), is.Number)
	}
	if _, err := c.Issues.SetState(ctx, name, opts.number, opts.want); err != nil {
		return err
	}
	ios.ErrPrintf("%s %s issue #%d (%s)\n", cs.SuccessIcon(), past, is.Number, title)
	return nil
}
