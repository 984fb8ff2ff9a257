package issue

import (
	"context"
	"fmt"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/completions"
	"github.com/spf13/cobra"
)

type commentOptions struct {
	cmdutil.Deps
	repoFlag string
	number   int64
	body     bodyFlags
}

func newCommentCmd(f *cmdutil.Factory, runF func(context.Context, *commentOptions) error) *cobra.Command {
	opts := &commentOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runComment)
	cmd := &cobra.Command{
		Use:   "comment NUMBER",
		Short: "Comment on an issue",
		Long: `Add a comment from --body, --body-file FILE (- for standard input) or, on
a terminal, your editor. Prints the comment's web address. If the service
refuses it, the text you typed is kept in a file whose path forge prints.`,
		Example: `  forge issue comment 12 --body "Fixed in v1.2"
  echo "Same here" | forge issue comment 12 --body-file -`,
		ValidArgsFunction: completions.Issues(f, "all"),
		Args:              cmdcore.ExactArgs(1, "an issue NUMBER"),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := parseNumber(args[0], &opts.repoFlag)
			if err != nil {
				return err
			}
			opts.number = n
			opts.body.bodySet = cmd.Flags().Changed("body")
			return runF(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.repoFlag)
	opts.body.add(cmd, "The comment's")
	return cmd
}

func runComment(ctx context.Context, opts *commentOptions) error {
	ios := opts.IO
	b := opts.body
	if !b.given() && !ios.CanPrompt() {
		return cmdcore.UsageErrorf("missing --body: pass --body TEXT or --body-file FILE (forge opens an editor only on a terminal)")
	}
	if b.bodySet && b.file != "" {
		return cmdcore.UsageErrorf("--body and --body-file cannot be used together")
	}
	c, name, err := opts.RepoClient(ctx, opts.repoFlag)
	if err != nil {
		return err
	}
	d, err := b.read(ctx, opts.Deps, "comment")
	if err != nil {
		return err
	}
	if strings.TrimSpace(d.body) == "" {
		d.sent()
		return cmdcore.UsageErrorf("the comment is empty; nothing sent")
	}
	cm, err := c.Issues.Comment(ctx, name, opts.number, d.body)
	if err != nil {
		return d.keep(mayHavePosted(err, opts.number, name))
	}
	d.sent()
	ios.ErrPrintf("%s Commented on issue #%d in %s\n", ios.ErrColorScheme().SuccessIcon(), opts.number, name)
	if cm.HTMLURL != "" {
		err = ios.Println(cm.HTMLURL)
	}
	return err
}

// mayHavePosted says, of a comment on issue number of repo sent without an
// answer (a timeout, a connection broken once it had left), that the
// service may have posted it all the same, and where to look: forge does
// not post again on its own (as issue create). Other errors pass as they
// are.
func mayHavePosted(err error, number int64, repo client.RepoName) error {
	if !client.Unanswered(err) {
		return err
	}
	return fmt.Errorf("%w; the comment may have been posted all the same: look with `forge issue view %d -R %s --comments` before sending it again", err, number, repo)
}
