package pr

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
	exporter *output.Exporter
	web      bool
	checks   string // checksSummary of the head commit's runs
}

func newViewCmd(f *cmdutil.Factory, runF func(context.Context, *viewOptions) error) *cobra.Command {
	opts := &viewOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runView)
	cmd := &cobra.Command{
		Use:   "view [NUMBER | URL]",
		Short: "Show a pull request",
		Long: `Show a pull request: title, state, author, branches and its description —
rendered as markdown on a terminal, as written when piped, after
"key:<TAB>value" lines and a "--" line. The checks line counts the CI runs
of its head commit by state (forge pr checks lists them).

Without a NUMBER: the open pull request whose head is the branch checked
out here (as gh chooses); when none is, on a terminal forge offers the
recent open pull requests to choose from.`,
		Example: `  forge pr view 3
  forge pr view 3 -R alice/demo --json state,merged,head`,
		Args: cmdcore.MaximumArgs(1, "a pull request NUMBER"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				n, err := pullNumber(cmd.Context(), opts.Deps, opts.repoFlag, "view")
				if err != nil {
					return err
				}
				opts.number = n
				return runF(cmd.Context(), opts)
			}
			n, err := cmdutil.ParseRef(strings.TrimPrefix(args[0], "#"), "pull request number", "pull", &opts.repoFlag)
			if err != nil {
				return err
			}
			opts.number = n
			return runF(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.repoFlag)
	cmd.Flags().BoolVarP(&opts.web, "web", "w", false, "Open the pull request in the browser")
	opts.exporter = output.AddJSONFlags(cmd, pullFields...)
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
	p, err := c.Pulls.Get(ctx, name, opts.number)
	if err != nil {
		return err
	}
	ios := opts.IO
	if opts.web {
		return browser.Open(ios, opts.Getenv, p.HTMLURL)
	}
	defer ios.StartPager()()
	if opts.exporter.Enabled() {
		return opts.exporter.Write(ios, p.RawJSON())
	}
	runs, err := headRuns(ctx, c, name, p)
	if err != nil {
		return err
	}
	opts.checks = checksSummary(runs)
	out := plain(opts, p)
	if ios.IsStdoutTTY() {
		out = render(opts, p)
	}
	return ios.Print(out)
}

func render(opts *viewOptions, p *client.PullRequest) iostreams.Styled {
	ios := opts.IO
	cs := ios.ColorScheme()
	st := p.StateWord()
	var b iostreams.Doc
	b.Printf(cs, "%s %s\n", cs.Bold(text.OneLine(p.Title)), cs.Gray(fmt.Sprintf("#%d", p.Number)))
	label := paintState(cs, st, text.Capitalize(text.OneLine(st)))
	b.Printf(cs, "%s • %s\n", label, byline(cs, p, st))
	if opts.checks != "none" {
		b.Printf(cs, "%s %s\n", cs.Gray("Checks:"), text.OneLine(opts.checks)) // the service's words
	}
	b.Add("\n")
	if strings.TrimSpace(p.Body) == "" {
		b.Add(cs.Gray("No description provided.") + "\n\n")
	} else {
		b.Add(markdown.ForStdout(ios, p.Body), "\n")
	}
	if p.HTMLURL != "" {
		b.Add(cs.Gray("View this pull request on the web: "+text.OneLine(p.HTMLURL)), "\n")
	}
	return b.Styled()
}

// byline says who did what to which branches, and when, in the tense of
// the pull request's state: "bob merged feature into main • 2 days ago".
func byline(cs *iostreams.ColorScheme, p *client.PullRequest, st string) iostreams.Styled {
	head, base := cs.Cyan(text.OneLine(p.Head.Ref)), cs.Cyan(text.OneLine(p.Base.Ref))
	author := p.User.Login
	switch st {
	case "merged":
		who := author
		if p.MergedBy != nil && p.MergedBy.Login != "" {
			who = p.MergedBy.Login
		}
		s := cs.Sprintf("%s merged %s into %s", who, head, base)
		if !p.MergedAt.IsZero() {
			s += cs.Sprintf(" • %s", output.FormatTime(p.MergedAt.Time, true))
		}
		return s
	case "closed":
		s := cs.Sprintf("%s wanted to merge %s into %s", author, head, base)
		if !p.ClosedAt.IsZero() {
			s += cs.Sprintf(" • closed %s", output.FormatTime(p.ClosedAt.Time, true))
		}
		return s
	}
	return cs.Sprintf("%s wants to merge %s into %s • opened %s", author, head, base, output.FormatTime(p.CreatedAt.Time, true))
}

func plain(opts *viewOptions, p *client.PullRequest) iostreams.Styled {
	cs := opts.IO.ColorScheme()
	var b iostreams.Doc
	row := func(k, v string) { b.Printf(cs, "%s:\t%s\n", k, v) }
	row("title", p.Title)
	row("state", p.StateWord())
	row("author", p.User.Login)
	row("number", fmt.Sprint(p.Number))
	row("head", p.Head.Ref)
	row("base", p.Base.Ref)
	row("draft", fmt.Sprint(p.Draft))
	row("created", output.FormatTime(p.CreatedAt.Time, false))
	row("url", p.HTMLURL)
	row("checks", opts.checks)
	b.Add("--\n")
	b.Add(markdown.ForStdout(opts.IO, p.Body))
	return b.Styled()
}

// pickPull asks, on a terminal, which of the 10 most recent open pull
// requests to show; elsewhere it is noWay.
func pickPull(ctx context.Context, d cmdutil.Deps, repoFlag string, noWay error) (int64, error) {
	return pick.Recent(ctx, d, repoFlag, noWay, "open pull requests",
		func(c *client.Client, name client.RepoName) iter.Seq2[*client.PullRequest, error] {
			return c.Pulls.List(ctx, name, client.PullListOptions{ListOptions: client.ListOptions{PerPage: 10}, State: "open"})
		},
		func(p *client.PullRequest) string {
			return fmt.Sprintf("#%d  %s (%s into %s)", p.Number, p.Title, p.Head.Ref, p.Base.Ref)
		},
		func(p *client.PullRequest) int64 { return p.Number })
}
