// Package status implements `forge status`: one screen to start the day
// with, across your repositories.
package status

import (
	"context"
	"fmt"
	"github.com/charmbracelet/x/ansi"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
	"golang.org/x/sync/errgroup"
)

// Bounds on the work one status does: the service has no search, so
// forge reads each repository's lists.
const (
	maxRepos    = 10                 // the most recently updated
	perRepo     = 30                 // issues and runs read in each
	maxComments = 5                  // issues whose comments are read
	recent      = 7 * 24 * time.Hour // how far back runs and comments count
	parallel    = 4                  // requests at once
)

// Item is one line of the status.
type Item struct {
	Kind   string    `json:"kind"` // issue, run or comment
	Repo   string    `json:"repo"`
	Number int64     `json:"number"` // issue number or run ID
	Title  string    `json:"title"`
	Who    string    `json:"who,omitempty"`
	When   time.Time `json:"when"`
	URL    string    `json:"url"`
	// state is a run's, marked and worded as forge run list shows it.
	state client.RunState
}

type options struct {
	cmdutil.Deps
	exporter *output.Exporter
}

// NewCmd returns `forge status`.
func NewCmd(f *cmdutil.Factory) *cobra.Command { return newStatusCmd(f, nil) }

func newStatusCmd(f *cmdutil.Factory, runF func(context.Context, *options) error) *cobra.Command {
	opts := &options{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, run)
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Your open issues, recent failed runs and new comments, across your repositories",
		Long: `One screen to start the day with, as gh status has: across your 10 most
recently updated repositories, the open issues you opened, the runs that
failed in the last 7 days (failure, timed_out, startup_failure, ...; not
the runs someone cancelled), and the comments others left on your open
issues in the last 7 days.

The service has no search: forge reads each repository's latest 30 issues
and runs, and the comments of up to 5 of your issues, 4 requests at a
time. Piped, one line each: kind (issue, run, comment), OWNER/REPO,
number or run ID, title, who, and the ISO 8601 time.`,
		Example: `  forge status
  forge status --json kind,repo,number --jq '.[] | select(.kind == "run")'`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), opts)
		},
	}
	opts.exporter = output.AddJSONFlags(cmd, "kind", "repo", "number", "title", "who", "when", "url")
	return cmd
}

func run(ctx context.Context, opts *options) error {
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	c, err := opts.REST()
	if err != nil {
		return err
	}
	me, err := c.Account.Me(ctx)
	if err != nil {
		return err
	}
	repos, err := client.Collect(c.Repos.List(ctx, client.ListOptions{PerPage: maxRepos}), maxRepos)
	if err != nil {
		return err
	}
	items, err := gather(ctx, c, me.Login, repos, time.Now().Add(-recent))
	if err != nil {
		return err
	}
	ios := opts.IO
	if opts.exporter.Enabled() {
		return opts.exporter.Write(ios, items)
	}
	if !ios.IsStdoutTTY() {
		t := output.NewTable(ios, "KIND", "REPO", "NUMBER", "TITLE", "WHO", "WHEN")
		for _, it := range items {
			t.Add(it.Kind)
			t.Add(it.Repo)
			t.Add(fmt.Sprint(it.Number))
			t.Add(it.Title)
			t.Add(it.Who)
			t.AddTime(it.When)
			t.EndRow()
		}
		return t.Render()
	}
	return ios.Print(render(ios, items, len(repos)))
}

// gather reads each repository's issues and runs, then the comments of
// the caller's most recently updated open issues.
func gather(ctx context.Context, c *client.Client, me string, repos []*client.Repo, since time.Time) ([]Item, error) {
	var (
		mu    sync.Mutex
		items []Item
		mine  []issueRef
		g     errgroup.Group
	)
	g.SetLimit(parallel)
	for _, r := range repos {
		name := r.RepoName()
		g.Go(func() error {
			list, err := client.Collect(c.Issues.List(ctx, name, client.IssueListOptions{ListOptions: client.ListOptions{PerPage: perRepo}, State: "open"}), perRepo)
			mu.Lock()
			defer mu.Unlock()
			for _, is := range list {
				if !strings.EqualFold(is.User.Login, me) {
					continue
				}
				items = append(items, Item{Kind: "issue", Repo: name.String(), Number: is.Number, Title: is.Title, When: is.CreatedAt.Time, URL: is.HTMLURL})
				if is.Comments > 0 && is.UpdatedAt.After(since) {
					mine = append(mine, issueRef{name, is.Number, is.Title, is.UpdatedAt.Time})
				}
			}
			return err
		})
		g.Go(func() error {
			runs, err := client.Collect(c.Actions.ListRuns(ctx, name, client.RunListOptions{ListOptions: client.ListOptions{PerPage: perRepo}}), perRepo)
			mu.Lock()
			defer mu.Unlock()
			for _, r := range runs {
				if client.Broke(r.Conclusion) && r.CreatedAt.After(since) {
					title := r.DisplayTitle
					if title == "" {
						title = r.Name
					}
					items = append(items, Item{Kind: "run", Repo: name.String(), Number: r.ID, Title: title, Who: r.HeadBranch, When: r.UpdatedAt.Time, URL: r.HTMLURL, state: r.State()})
				}
			}
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	sort.Slice(mine, func(i, j int) bool { return mine[i].updated.After(mine[j].updated) })
	for _, ref := range mine[:min(len(mine), maxComments)] {
		g.Go(func() error {
			is, err := c.Issues.Get(ctx, ref.repo, ref.number)
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			for _, cm := range is.CommentsList {
				if !strings.EqualFold(cm.User.Login, me) && cm.CreatedAt.After(since) {
					items = append(items, Item{Kind: "comment", Repo: ref.repo.String(), Number: ref.number, Title: ref.title, Who: cm.User.Login, When: cm.CreatedAt.Time, URL: cm.HTMLURL})
				}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	order := map[string]int{"issue": 0, "run": 1, "comment": 2}
	sort.SliceStable(items, func(i, j int) bool {
		if order[items[i].Kind] != order[items[j].Kind] {
			return order[items[i].Kind] < order[items[j].Kind]
		}
		return items[i].When.After(items[j].When)
	})
	return items, nil
}

type issueRef struct {
	repo    client.RepoName
	number  int64
	title   string
	updated time.Time
}

// render is the terminal screen: a section per kind, each line made safe.
func render(ios *iostreams.IOStreams, items []Item, repos int) iostreams.Styled {
	cs := ios.ColorScheme()
	var b iostreams.Doc
	b.Printf(cs, "%s\n", cs.Gray("Across your "+text.Plural(repos, "repository", "repositories")))
	sections := []struct{ kind, head, none string }{
		{"issue", "Your open issues", "none"},
		{"run", "Failed runs, last 7 days", "none"},
		{"comment", "New comments on your issues, last 7 days", "none"},
	}
	for _, s := range sections {
		b.Printf(cs, "\n%s\n", cs.Bold(s.head))
		var lines []line
		for _, it := range items {
			if it.Kind != s.kind {
				continue
			}
			ref := fmt.Sprintf("%s#%d", it.Repo, it.Number)
			var lead, what iostreams.Styled
			switch it.Kind {
			case "issue":
				lead, what = cs.Cyan(text.OneLine(ref)), cs.Sprintf("%s", it.Title)
			case "run":
				lead = output.StateMark(cs, it.state) + " " + cs.Red(text.OneLine(it.Repo))
				what = cs.Sprintf("%s %s", it.Title, cs.Gray(fmt.Sprintf("(run %d, %s, %s)", it.Number, text.OneLine(it.Who), text.OneLine(it.state.Word))))
			case "comment":
				lead, what = cs.Cyan(text.OneLine(ref)), cs.Sprintf("%s on %s", cs.Bold(text.OneLine(it.Who)), it.Title)
			}
			lines = append(lines, line{lead, what, cs.Gray(output.FormatTime(it.When, true))})
		}
		if len(lines) == 0 {
			b.Printf(cs, "  %s\n", cs.Gray(s.none))
		}
		writeAligned(&b, cs, lines)
	}
	return b.Styled()
}

// line is one line of a section: where (a repository, an issue), what,
// and when.
type line struct{ lead, what, when iostreams.Styled }

// writeAligned writes a section's lines in three columns: the leads
// aligned, the times after the longest text and two spaces, colour or not.
func writeAligned(b *iostreams.Doc, cs *iostreams.ColorScheme, lines []line) {
	leadW, whatW := 0, 0
	for _, l := range lines {
		leadW = max(leadW, ansi.StringWidth(string(l.lead)))
		whatW = max(whatW, ansi.StringWidth(string(l.what)))
	}
	for _, l := range lines {
		b.Printf(cs, "  %s%*s  %s%*s  %s\n", l.lead, leadW-ansi.StringWidth(string(l.lead)), "",
			l.what, whatW-ansi.StringWidth(string(l.what)), "", l.when)
	}
}
