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
	"github.com/forgehq/forge/client"
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
}

// NewCmd returns `forge browse`. runF runs instead of Run when not nil
// (gh's seam: a test checks how the flags and arguments were read).
func NewCmd(f *cmdutil.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{
		Deps: f.Deps(),
		Open: func(url string) error { return browser.Open(f.IOStreams, f.Getenv, url) },
	}
	runF = cmdutil.Seam(runF, Run)
	cmd := &cobra.Command{
		Use:   "browse [NUMBER | PATH]",
		Short: "Open a repository, issue, pull request or file in the browser",
		Long: `Open the web page of the repository (-R, FORGE_REPO or the git remote
here), of its issue or pull request NUMBER, or of the file PATH on the
default branch. The address is the one the service gives (html_url).

$BROWSER, when set, is the command that opens pages; without it forge uses
the system's opener, and where there is none (an SSH session without a
display) prints the address. --no-browser prints it always.`,
		Example: `  forge browse
  forge browse 12
  forge browse README.md -R alice/demo
  forge browse --no-browser`,
		Args: cmdutil.MaximumArgs(1, "one NUMBER or PATH"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Target = args[0]
			}
			return runF(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.RepoFlag)
	cmd.Flags().BoolVarP(&opts.NoBrowser, "no-browser", "n", false, "Print the address instead of opening it")
	return cmd
}

// Run finds the page's address and opens (or prints) it.
func Run(ctx context.Context, opts *Options) error {
	c, repo, err := opts.RepoClient(ctx, opts.RepoFlag)
	if err != nil {
		return err
	}
	address, err := find(ctx, c, repo, opts.Target)
	if err != nil {
		return err
	}
	if opts.NoBrowser {
		_, err := fmt.Fprintln(opts.IO.Out, text.OnTerminal(opts.IO.IsStdoutTTY(), address))
		return err
	}
	return opts.Open(address)
}

// find is the target's html_url: the repository's, an issue's or pull
// request's (issue first, as gh's browse does), or a file's.
func find(ctx context.Context, c *client.Client, repo client.RepoName, target string) (string, error) {
	if target == "" {
		r, err := c.Repos.Get(ctx, repo)
		if err != nil {
			return "", err
		}
		return r.HTMLURL, nil
	}
	if n, err := strconv.ParseInt(strings.TrimPrefix(target, "#"), 10, 64); err == nil && n > 0 {
		is, err := c.Issues.Get(ctx, repo, n)
		if err == nil {
			return is.HTMLURL, nil
		}
		if !client.IsNotFound(err) {
			return "", err
		}
		p, perr := c.Pulls.Get(ctx, repo, n)
		if perr == nil {
			return p.HTMLURL, nil
		}
		if client.IsNotFound(perr) {
			return "", fmt.Errorf("no issue or pull request #%d in %s", n, repo)
		}
		return "", perr
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
