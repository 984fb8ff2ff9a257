// Package browse implements `forge browse`: the web page of a repository,
// an issue, a pull request or a file.
package browse

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd/internal/pick"
	"github.com/forgehq/forge/internal/browser"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
)

// Options are what `forge browse` uses: the Deps (the streams, the
// repository's client) and a way to open a page. NewCmd fills them from
// the Factory; a test may build them directly and call Run.
type Options struct {
	cmdutil.Deps
	Open func(url string) error

	RepoFlag  string
	Target    string // "", a NUMBER (#N) or a file PATH
	NoBrowser bool
	// Issue and PR say which of the two a NUMBER is: the service numbers
	// issues and pull requests apart, so #3 may be both.
	Issue, PR bool
}

// NewCmd returns `forge browse`. runF runs instead of Run when not nil
// (gh's seam: a test checks how the flags and arguments were read).
func NewCmd(f *cmdutil.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{
		Deps: f.Deps(),
		Open: func(url string) error { return browser.Open(f.IOStreams, f.Getenv, url) },
	}
	runF = cmdcore.Seam(runF, Run)
	cmd := &cobra.Command{
		Use:   "browse [NUMBER | PATH]",
		Short: "Open a repository, issue, pull request or file in the browser",
		Long: `Open the web page of the repository (-R, FORGE_REPO or the git remote
here), of its issue or pull request NUMBER, or of the file PATH on the
default branch. The address is the one the service gives (html_url).

The service numbers issues and pull requests apart, so issue #3 and pull
request #3 may both exist: --issue or --pr says which one NUMBER is.
Without them, forge asks on a terminal; without a terminal it opens the
issue (as gh does) and says on stderr how to open the pull request. On a
service that numbers them together (its issue read answers a pull request,
marked as one), that one read decides.

$BROWSER, when set, is the command that opens pages; without it forge uses
the system's opener, and where there is none (an SSH session without a
display) prints the address. --no-browser prints it always.`,
		Example: `  forge browse
  forge browse 12
  forge browse 3 --pr
  forge browse README.md -R alice/demo
  forge browse --no-browser`,
		Args: cmdcore.MaximumArgs(1, "one NUMBER or PATH"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Target = args[0]
			}
			if (opts.Issue || opts.PR) && number(opts.Target) == 0 {
				return cmdcore.UsageErrorf("--issue and --pr say which NUMBER to open: give one, as in `forge browse 3 --pr`")
			}
			return runF(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.RepoFlag)
	fl := cmd.Flags()
	fl.BoolVarP(&opts.NoBrowser, "no-browser", "n", false, "Print the address instead of opening it")
	fl.BoolVar(&opts.Issue, "issue", false, "NUMBER is an issue")
	fl.BoolVar(&opts.PR, "pr", false, "NUMBER is a pull request")
	cmd.MarkFlagsMutuallyExclusive("issue", "pr")
	return cmd
}

// number is target's NUMBER (#N or N), 0 when it is none.
func number(target string) int64 {
	n, err := strconv.ParseInt(strings.TrimPrefix(target, "#"), 10, 64)
	if err != nil || n < 1 {
		return 0
	}
	return n
}

// Run finds the page's address and opens (or prints) it.
func Run(ctx context.Context, opts *Options) error {
	c, repo, err := opts.RepoClient(ctx, opts.RepoFlag)
	if err != nil {
		return err
	}
	var address string
	if n := number(opts.Target); n > 0 {
		address, err = findNumber(ctx, opts, c, repo, n)
	} else {
		address, err = find(ctx, c, repo, opts.Target)
	}
	if err != nil {
		return err
	}
	if opts.NoBrowser {
		err := opts.IO.Println(address)
		return err
	}
	return opts.Open(address)
}

// find is the target's html_url: the repository's or a file's.
func find(ctx context.Context, c *client.Client, repo client.RepoName, target string) (string, error) {
	if target == "" {
		r, err := c.Repos.Get(ctx, repo)
		if err != nil {
			return "", err
		}
		return r.HTMLURL, nil
	}
	// The entry in its directory's listing has the address: reading the
	// file itself would fetch its content, refused past the service's
	// inline limit.
	file, err := c.Repos.Stat(ctx, repo, target, client.ContentsOptions{})
	if client.IsNotFound(err) || err == nil && file == nil {
		return "", fmt.Errorf("no file %s in %s: give an issue or pull request NUMBER or a file's PATH", text.OneLine(target), repo)
	}
	if err != nil {
		return "", err
	}
	if file.Type == "dir" || file.HTMLURL == "" {
		return "", errors.New(text.OneLine(target) + " is a directory, or the service gave no web address for it: forge browse opens files, issues, pull requests and the repository")
	}
	return file.HTMLURL, nil
}

// findNumber is the html_url of issue or pull request n: the one --issue
// or --pr names, else the one that exists. When both do, it asks on a
// terminal; without one it takes the issue, as gh's browse does, and says
// how to open the other.
//
// The spec does not say whether issues and pull requests share numbers.
// One request decides when --issue or --pr names the kind, or when the
// issue read answers a pull request marked as one (a service numbering
// both together: #n is that pull request, and no issue). Otherwise both
// are read: the reference server numbers them apart, and only the second
// read can tell whether #n is both.
func findNumber(ctx context.Context, opts *Options, c *client.Client, repo client.RepoName, n int64) (string, error) {
	var is *client.Issue
	var p *client.PullRequest
	var err error
	if !opts.PR {
		if is, err = c.Issues.Get(ctx, repo, n); err != nil && (opts.Issue || !client.IsNotFound(err)) {
			return "", err
		}
	}
	if is != nil && is.IsPullRequest() {
		if opts.Issue {
			return "", fmt.Errorf("#%d in %s is a pull request, not an issue: drop --issue", n, repo)
		}
		if is.HTMLURL != "" {
			return is.HTMLURL, nil
		}
		is = nil // no address given: the pull request's own read has one
	}
	if !opts.Issue {
		if p, err = c.Pulls.Get(ctx, repo, n); err != nil && (opts.PR || !client.IsNotFound(err)) {
			return "", err
		}
	}
	switch {
	case is == nil && p == nil:
		return "", fmt.Errorf("no issue or pull request #%d in %s", n, repo)
	case p == nil:
		return is.HTMLURL, nil
	case is == nil:
		return p.HTMLURL, nil
	}
	ios := opts.IO
	if ios.CanPrompt() {
		ios.ErrPrintf("#%d is both an issue and a pull request in %s:\n", n, repo)
		items := []string{"issue: " + is.Title, "pull request: " + p.Title}
		i, err := pick.One(ctx, ios, opts.Prompter, "Which one?", items, nil)
		if err != nil {
			return "", err
		}
		return []string{is.HTMLURL, p.HTMLURL}[i], nil
	}
	other := fmt.Sprintf("forge browse %d --pr", n)
	if opts.RepoFlag != "" {
		other += " -R " + repo.String()
	}
	ios.ErrPrintf("%s #%d is both an issue and a pull request in %s: chose the issue; for the pull request: %s\n",
		ios.ErrColorScheme().WarningIcon(), n, repo, other)
	return is.HTMLURL, nil
}
