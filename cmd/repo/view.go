package repo

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/output"
	"github.com/forgehq/forge/client"
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
	args     []string
	web      bool
	exporter *output.Exporter
}

func newViewCmd(f *cmdutil.Factory, runF func(context.Context, *viewOptions) error) *cobra.Command {
	opts := &viewOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runView)
	cmd := &cobra.Command{
		Use:   "view [OWNER/REPO]",
		Short: "Show a repository and its README",
		Long: `Show a repository: its description, visibility, default branch, clone
addresses and README. On a terminal the README is rendered; piped, forge
prints "key:<TAB>value" lines, a "--" line and the README as written.

Without OWNER/REPO: -R, FORGE_REPO or the git remote of this directory. A
bare NAME is your own repository. --web opens it in the browser ($BROWSER).`,
		Example: `  forge repo view alice/demo
  forge repo view --web
  forge repo view alice/demo --json clone_url,default_branch`,
		ValidArgsFunction: completions.RepoArg(f),
		Args:              cmdcore.MaximumArgs(1, "at most one OWNER/REPO"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.args = args
			return runF(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.repoFlag)
	cmd.Flags().BoolVarP(&opts.web, "web", "w", false, "Open the repository in the browser")
	opts.exporter = output.AddJSONFlags(cmd, repoFields...)
	return cmd
}

func runView(ctx context.Context, opts *viewOptions) error {
	if err := opts.exporter.Validate(); err != nil {
		return err
	}
	if opts.web && opts.exporter.Enabled() {
		return cmdcore.UsageErrorf("--web and --json cannot be used together")
	}
	name, err := targetRepo(ctx, opts.Deps, opts.args, opts.repoFlag)
	if err != nil {
		return err
	}
	c, err := opts.REST()
	if err != nil {
		return err
	}
	r, err := c.Repos.Get(ctx, name)
	if err != nil {
		return err
	}
	ios := opts.IO
	switch {
	case opts.exporter.Enabled():
		return opts.exporter.Write(ios, r.RawJSON())
	case opts.web:
		return browser.Open(opts.IO, opts.Getenv, r.HTMLURL)
	}
	rd, err := findReadme(ctx, c, name)
	if err != nil {
		return err
	}
	if !ios.IsStdoutTTY() {
		if rd.cut != "" {
			ios.ErrPrintln(rd.cut)
		}
		return printRepoRaw(opts, r, rd.text)
	}
	return printRepo(opts, r, rd)
}

// maxReadme is how much of a README forge reads: a longer one is shown
// in part, and says so.
const maxReadme = 1 << 20

// readme is what findReadme found.
type readme struct {
	text, name string
	// cut, when the README is longer than maxReadme, says so and how to
	// read it whole.
	cut string
}

// findReadme reads the repository's README (README.md, README, readme.txt,
// ... in the top directory), its first maxReadme bytes; its text is ""
// when it has none or is empty. Only a cancelled context is an error: the
// README is a courtesy.
func findReadme(ctx context.Context, c *client.Client, name client.RepoName) (readme, error) {
	_, dir, err := c.Repos.Contents(ctx, name, "", client.ContentsOptions{})
	if err != nil {
		return readme{}, ctx.Err()
	}
	for _, e := range dir {
		base := strings.TrimSuffix(strings.ToLower(e.Name), path.Ext(e.Name))
		if base != "readme" || e.Type != "file" && e.Type != "" {
			continue
		}
		f, b, cut, err := c.Repos.ReadFile(ctx, name, e.Path, client.ContentsOptions{}, maxReadme)
		if err != nil {
			return readme{}, ctx.Err()
		}
		rd := readme{text: string(b), name: e.Name}
		if cut {
			size := "more than " + text.Bytes(maxReadme)
			if f.Size >= 0 {
				size = text.Bytes(f.Size)
			}
			rd.cut = fmt.Sprintf("The README is %s; its first %s is shown: `forge repo contents %s -R %s` prints it whole.",
				size, text.Bytes(maxReadme), text.OneLine(e.Path), name)
		}
		return rd, nil
	}
	return readme{}, nil
}

func printRepo(opts *viewOptions, r *client.Repo, rd readme) error {
	ios := opts.IO
	cs := ios.ColorScheme()
	var b iostreams.Doc
	b.Add(cs.Bold(text.OneLine(r.RepoName().String())) + "\n")
	if r.Description != "" {
		b.Printf(cs, "%s\n", r.Description)
	}
	b.Add("\n")
	row := func(k, v string) {
		if v != "" {
			b.Printf(cs, "%-16s%s\n", k, v)
		}
	}
	row("visibility", visibility(r.Private))
	row("default branch", r.DefaultBranch)
	row("clone", r.CloneURL)
	row("ssh", r.SSHURL)
	row("updated", output.FormatTime(r.UpdatedAt.Time, true))
	b.Add("\n")
	switch {
	case rd.text == "":
		b.Add(cs.Gray("This repository has no README.") + "\n\n")
	case markdown.IsFile(rd.name):
		b.Add(markdown.ForStdout(ios, rd.text) + "\n")
	default:
		for _, line := range strings.Split(strings.TrimRight(rd.text, "\n"), "\n") {
			b.Printf(cs, "%s\n", line)
		}
		b.Add("\n")
	}
	if rd.cut != "" {
		b.Add(cs.Gray(rd.cut) + "\n\n")
	}
	b.Add(cs.Gray("View this repository on the web: "+text.OneLine(r.HTMLURL)) + "\n")
	return ios.Print(b.Styled())
}

// printRepoRaw is the piped form, after gh: key:<TAB>value lines, "--",
// then the README as written.
func printRepoRaw(opts *viewOptions, r *client.Repo, readme string) error {
	cs := opts.IO.ColorScheme()
	var b iostreams.Doc
	row := func(k, v string) { b.Printf(cs, "%s:\t%s\n", k, v) }
	row("name", r.RepoName().String())
	row("description", r.Description)
	row("visibility", visibility(r.Private))
	row("default_branch", r.DefaultBranch)
	row("clone_url", r.CloneURL)
	row("ssh_url", r.SSHURL)
	row("html_url", r.HTMLURL)
	row("updated_at", output.FormatTime(r.UpdatedAt.Time, false))
	b.Add("--\n")
	b.Add(markdown.ForStdout(opts.IO, readme))
	return opts.IO.Print(b.Styled())
}
