package issue

import (
	"context"
	"fmt"
	"iter"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd/internal/pick"
	"github.com/forgehq/forge/completions"
	"github.com/forgehq/forge/internal/browser"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/markdown"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
)

type viewOptions struct {
	cmdutil.Deps
	repoFlag string
	number   int64
	comments bool
	web      bool
	exporter *output.Exporter
}

func newViewCmd(f *cmdutil.Factory, runF func(context.Context, *viewOptions) error) *cobra.Command {
	opts := &viewOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runView)
	cmd := &cobra.Command{
		Use:   "view [NUMBER | URL]",
		Short: "Show an issue and, with --comments, its discussion",
		Long: `Show an issue: title, state, author, and its body — rendered as markdown on
a terminal, as written when piped. --comments adds every comment.

Piped, forge prints "key:<TAB>value" lines, a "--" line and the body; with
--comments each comment follows as "--", its author and date lines, "--"
and its text.

Without a NUMBER on a terminal, forge offers the recent open issues to
choose from.`,
		Example: `  forge issue view 12
  forge issue view 12 --comments
  forge issue view 12 --json title,state,comments_list`,
		ValidArgsFunction: completions.Issues(f, "all"),
		Args:              cmdcore.MaximumArgs(1, "an issue NUMBER"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				n, err := pickIssue(cmd.Context(), opts.Deps, opts.repoFlag, cmdcore.UsageErrorf("missing an issue NUMBER; see `forge issue view --help`"))
				if err != nil {
					return err
				}
				opts.number = n
				return runF(cmd.Context(), opts)
			}
			n, err := parseNumber(args[0], &opts.repoFlag)
			if err != nil {
				return err
			}
			opts.number = n
			return runF(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.repoFlag)
	cmd.Flags().BoolVarP(&opts.comments, "comments", "c", false, "Show the comments too")
	cmd.Flags().BoolVarP(&opts.web, "web", "w", false, "Open the issue in the browser")
	opts.exporter = output.AddJSONFlags(cmd, viewFields...)
	return cmd
}

func runView(ctx context.Context, opts *viewOptions) error {
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	c, name, err := opts.RepoClient(ctx, opts.repoFlag)
	if err != nil {
		return err
	}
	is, err := c.Issues.Get(ctx, name, opts.number)
	if err != nil {
		return err
	}
	ios := opts.IO
	if opts.web {
		return browser.Open(ios, opts.Getenv, is.HTMLURL)
	}
	defer ios.StartPager()()
	var out iostreams.Styled
	switch {
	case opts.exporter.Enabled():
		return opts.exporter.Write(ios, is.RawJSON())
	case ios.IsStdoutTTY():
		out = opts.render(is)
	default:
		out = opts.plain(is)
	}
	return ios.Print(out)
}

// render is the terminal form: a header, the rendered body, the comments
// and the issue's address.
func (opts *viewOptions) render(is *client.Issue) iostreams.Styled {
	ios := opts.IO
	cs := ios.ColorScheme()
	var b iostreams.Doc
	b.Printf(cs, "%s %s\n", cs.Bold(text.OneLine(is.Title)), cs.Gray(fmt.Sprintf("#%d", is.Number)))
	state := cs.Green("Open")
	if is.State != "open" {
		state = cs.Magenta(text.Capitalize(text.OneLine(is.State)))
	}
	b.Printf(cs, "%s • %s opened %s", state, is.User.Login, output.FormatTime(is.CreatedAt.Time, true))
	if n := commentCount(is); n > 0 {
		b.Printf(cs, " • %s", text.Count(n, "comment"))
	}
	b.Add("\n\n")
	if strings.TrimSpace(is.Body) == "" {
		b.Add(cs.Gray("No description provided.") + "\n\n")
	} else {
		b.Add(markdown.ForStdout(ios, is.Body) + "\n")
	}
	n := commentCount(is)
	switch {
	case opts.comments:
		for _, cm := range is.CommentsList {
			b.Printf(cs, "%s %s\n\n", cs.Bold(text.OneLine(cm.User.Login)), cs.Gray("commented "+output.FormatTime(cm.CreatedAt.Time, true)))
			b.Add(markdown.ForStdout(ios, cm.Body) + "\n")
		}
	case n > 0:
		b.Add(cs.Gray(fmt.Sprintf("%s; show them with --comments", text.Count(n, "comment"))) + "\n")
	}
	if is.HTMLURL != "" {
		b.Add(cs.Gray("View this issue on the web: "+text.OneLine(is.HTMLURL)) + "\n")
	}
	return b.Styled()
}

// plain is the piped form, after gh: key:<TAB>value lines, "--", the body
// as written.
func (opts *viewOptions) plain(is *client.Issue) iostreams.Styled {
	cs := opts.IO.ColorScheme()
	var b iostreams.Doc
	row := func(k, v string) { b.Printf(cs, "%s:\t%s\n", k, v) }
	row("title", is.Title)
	row("state", is.State)
	row("author", is.User.Login)
	row("number", fmt.Sprint(is.Number))
	row("comments", fmt.Sprint(commentCount(is)))
	row("created", output.FormatTime(is.CreatedAt.Time, false))
	row("url", is.HTMLURL)
	b.Add("--\n")
	b.Add(markdown.ForStdout(opts.IO, is.Body))
	if opts.comments {
		for _, cm := range is.CommentsList {
			b.Add("--\n")
			row("author", cm.User.Login)
			row("created", output.FormatTime(cm.CreatedAt.Time, false))
			b.Add("--\n")
			b.Add(markdown.ForStdout(opts.IO, cm.Body))
		}
	}
	return b.Styled()
}

// commentCount is the count the service sent, or the comments it listed.
func commentCount(is *client.Issue) int {
	return max(int(is.Comments), len(is.CommentsList))
}

// pickIssue asks, on a terminal, which of the 10 most recent open issues
// to show; elsewhere it is noWay, the usage error of a missing NUMBER.
func pickIssue(ctx context.Context, d cmdutil.Deps, repoFlag string, noWay error) (int64, error) {
	return pick.Recent(ctx, d, repoFlag, noWay, "open issues",
		func(c *client.Client, name client.RepoName) iter.Seq2[*client.Issue, error] {
			return c.Issues.List(ctx, name, client.IssueListOptions{ListOptions: client.ListOptions{PerPage: 10}, State: "open"})
		},
		func(is *client.Issue) string { return fmt.Sprintf("#%d  %s (%s)", is.Number, is.Title, is.User.Login) },
		func(is *client.Issue) int64 { return is.Number })
}
