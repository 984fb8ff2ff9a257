package release

import (
	"context"
	"fmt"
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
	tag      string
	exporter *output.Exporter
	web      bool
}

func newViewCmd(f *cmdutil.Factory, runF func(context.Context, *viewOptions) error) *cobra.Command {
	opts := &viewOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runView)
	cmd := &cobra.Command{
		Use:   "view [TAG]",
		Short: "Show a release",
		Long: `Show the release of a tag: its title, type (Latest, Draft, Pre-release),
author, dates and notes — rendered as markdown on a terminal, as written
when piped, after "key:<TAB>value" lines and a "--" line.

Without a TAG, the latest release: the newest that is neither a draft nor
a pre-release, as release list marks it.

The service lists releases but has no endpoint for one tag, so forge finds
the tag in the list (newest first, a page of 100 at a time).`,
		Example: `  forge release view -R alice/demo
  forge release view v1.0.0 -R alice/demo
  forge release view v1.0.0 --json name,body --jq .body`,
		ValidArgsFunction: completions.Releases(f),
		Args:              cmdcore.MaximumArgs(1, "a release TAG"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.tag = strings.TrimSpace(args[0])
				if opts.tag == "" {
					return cmdcore.UsageErrorf("the release TAG is empty; leave it out for the latest release")
				}
			}
			return runF(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.repoFlag)
	cmd.Flags().BoolVarP(&opts.web, "web", "w", false, "Open the release in the browser")
	opts.exporter = output.AddJSONFlags(cmd, releaseFields...)
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
	r, kind, err := findTag(ctx, c, name, opts.tag)
	if err != nil {
		return err
	}
	ios := opts.IO
	if opts.web {
		return browser.Open(ios, opts.Getenv, r.HTMLURL)
	}
	defer ios.StartPager()()
	if opts.exporter.Enabled() {
		return opts.exporter.Write(ios, r.RawJSON())
	}
	out := plain(opts, r, kind)
	if ios.IsStdoutTTY() {
		out = render(opts, r, kind)
	}
	return ios.Print(out)
}

// findTag walks the release list for tag and returns its release and type
// (releaseType's word, so "Latest" means what it means in release list).
func findTag(ctx context.Context, c *client.Client, repo client.RepoName, tag string) (*client.Release, string, error) {
	latestSeen := false
	for r, err := range c.Releases.List(ctx, repo, client.ListOptions{PerPage: 100}) {
		if err != nil {
			return nil, "", err
		}
		kind, _ := releaseType(r, &latestSeen)
		if r.TagName == tag || (tag == "" && kind == "Latest") {
			return r, kind, nil
		}
	}
	if tag == "" {
		return nil, "", fmt.Errorf("no published release in %s yet (drafts and pre-releases are not the latest); see `forge release list -R %s`", repo, repo)
	}
	return nil, "", fmt.Errorf("no release of tag %q in %s; see `forge release list -R %s`", text.OneLine(tag), repo, repo)
}

func render(opts *viewOptions, r *client.Release, kind string) iostreams.Styled {
	ios := opts.IO
	cs := ios.ColorScheme()
	var b iostreams.Doc
	if r.Name == "" || r.Name == r.TagName {
		b.Printf(cs, "%s\n", cs.Bold(text.OneLine(r.TagName)))
	} else {
		b.Printf(cs, "%s %s\n", cs.Bold(text.OneLine(r.Name)), cs.Cyan(text.OneLine(r.TagName)))
	}
	var meta []iostreams.Styled
	switch kind {
	case "Latest":
		meta = append(meta, cs.Green(kind))
	case "Draft":
		meta = append(meta, cs.Red(kind))
	case "Pre-release":
		meta = append(meta, cs.Yellow(kind))
	}
	// A draft is not published: its age is its creation's.
	if r.Draft || r.PublishedAt.Time.IsZero() {
		meta = append(meta, cs.Sprintf("%s created this %s", r.Author.Login, output.FormatTime(r.CreatedAt.Time, true)))
	} else {
		meta = append(meta, cs.Sprintf("%s published this %s", r.Author.Login, output.FormatTime(r.PublishedAt.Time, true)))
	}
	b.Add(iostreams.Join(meta, " • "), "\n\n")
	if strings.TrimSpace(r.Body) == "" {
		b.Add(cs.Gray("No release notes.") + "\n\n")
	} else {
		b.Add(markdown.ForStdout(ios, r.Body) + "\n")
	}
	if r.HTMLURL != "" {
		b.Add(cs.Gray("View this release on the web: "+text.OneLine(r.HTMLURL)) + "\n")
	}
	return b.Styled()
}

func plain(opts *viewOptions, r *client.Release, kind string) iostreams.Styled {
	cs := opts.IO.ColorScheme()
	var b iostreams.Doc
	row := func(k, v string) { b.Printf(cs, "%s:\t%s\n", k, v) }
	row("title", r.Name)
	row("tag", r.TagName)
	row("type", kind)
	row("author", r.Author.Login)
	row("target", r.TargetCommitish)
	row("created", output.FormatTime(r.CreatedAt.Time, false))
	row("published", output.FormatTime(r.PublishedAt.Time, false))
	row("url", r.HTMLURL)
	b.Add("--\n")
	b.Add(markdown.ForStdout(opts.IO, r.Body))
	return b.Styled()
}
