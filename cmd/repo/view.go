package repo

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/completions"
	"github.com/forgehq/forge/internal/browser"
	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/forgehq/forge/internal/markdown"
	"github.com/forgehq/forge/internal/output"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
)

type viewOptions struct {
	f        *cmdutil.Factory
	repoFlag string
	args     []string
	web      bool
	exporter *output.Exporter
}

func newViewCmd(f *cmdutil.Factory) *cobra.Command {
	opts := &viewOptions{f: f}
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
		Args:              cmdutil.MaximumArgs(1, "at most one OWNER/REPO"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.args = args
			return runView(cmd.Context(), opts)
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
		return cmdutil.UsageErrorf("--web and --json cannot be used together")
	}
	name, err := targetRepo(ctx, opts.f, opts.args, opts.repoFlag)
	if err != nil {
		return err
	}
	c, err := opts.f.REST()
	if err != nil {
		return err
	}
	r, err := c.Repos.Get(ctx, name)
	if err != nil {
		return err
	}
	ios := opts.f.IOStreams
	switch {
	case opts.exporter.Enabled():
		return opts.exporter.Write(ios, r.RawJSON())
	case opts.web:
		return browser.Open(opts.f.IOStreams, opts.f.Getenv, r.HTMLURL)
	}
	readme, readmeName, err := findReadme(ctx, c, name)
	if err != nil {
		return err
	}
	if !ios.IsStdoutTTY() {
		return printRepoRaw(opts, r, readme)
	}
	return printRepo(opts, r, readme, readmeName)
}

// findReadme reads the repository's README (README.md, README, readme.txt,
// ... in the top directory), or "" when it has none or is empty. Only a
// cancelled context is an error: the README is a courtesy.
func findReadme(ctx context.Context, c *client.Client, name client.RepoName) (string, string, error) {
	_, dir, err := c.Repos.Contents(ctx, name, "", client.ContentsOptions{})
	if err != nil {
		return "", "", ctx.Err()
	}
	for _, e := range dir {
		base := strings.TrimSuffix(strings.ToLower(e.Name), path.Ext(e.Name))
		if base != "readme" || e.Type != "file" && e.Type != "" {
			continue
		}
		file, _, err := c.Repos.Contents(ctx, name, e.Path, client.ContentsOptions{})
		if err != nil || file == nil {
			return "", "", ctx.Err()
		}
		b, err := file.Decoded()
		if err != nil {
			return "", "", nil
		}
		return string(b), e.Name, nil
	}
	return "", "", nil
}

func printRepo(opts *viewOptions, r *client.Repo, readme, readmeName string) error {
	ios := opts.f.IOStreams
	cs := ios.ColorScheme()
	var b strings.Builder
	b.WriteString(cs.Bold(text.OneLine(r.RepoName().String())) + "\n")
	if r.Description != "" {
		b.WriteString(text.OneLine(r.Description) + "\n")
	}
	b.WriteByte('\n')
	row := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&b, "%-16s%s\n", k, text.OneLine(v))
		}
	}
	row("visibility", visibility(r.Private))
	row("default branch", r.DefaultBranch)
	row("clone", r.CloneURL)
	row("ssh", r.SSHURL)
	row("updated", output.FormatTime(r.UpdatedAt.Time, true))
	b.WriteByte('\n')
	switch {
	case readme == "":
		b.WriteString(cs.Gray("This repository has no README.") + "\n\n")
	case isMarkdown(readmeName):
		b.WriteString(markdown.ForStdout(ios, readme) + "\n")
	default:
		for _, line := range strings.Split(strings.TrimRight(readme, "\n"), "\n") {
			b.WriteString(text.OneLine(line) + "\n")
		}
		b.WriteByte('\n')
	}
	b.WriteString(cs.Gray("View this repository on the web: "+text.OneLine(r.HTMLURL)) + "\n")
	_, err := fmt.Fprint(ios.Out, b.String())
	return err
}

func isMarkdown(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".md", ".markdown", ".mdown", "":
		return true
	}
	return false
}

// printRepoRaw is the piped form, after gh: key:<TAB>value lines, "--",
// then the README as written.
func printRepoRaw(opts *viewOptions, r *client.Repo, readme string) error {
	var b strings.Builder
	row := func(k, v string) { fmt.Fprintf(&b, "%s:\t%s\n", k, v) }
	row("name", r.RepoName().String())
	row("description", r.Description)
	row("visibility", visibility(r.Private))
	row("default_branch", r.DefaultBranch)
	row("clone_url", r.CloneURL)
	row("ssh_url", r.SSHURL)
	row("html_url", r.HTMLURL)
	row("updated_at", output.FormatTime(r.UpdatedAt.Time, false))
	b.WriteString("--\n")
	b.WriteString(markdown.ForStdout(opts.f.IOStreams, readme))
	_, err := fmt.Fprint(opts.f.IOStreams.Out, b.String())
	return err
}
