package mcpserver

import (
	"context"
	"fmt"

	"github.com/forgehq/forge/client"
)

// Pull is a pull request; Body only in pr_view.
type Pull struct {
	Number    int64  `json:"number"`
	Title     string `json:"title"`
	State     string `json:"state"`
	Author    string `json:"author"`
	Head      string `json:"head"`
	Base      string `json:"base"`
	Draft     bool   `json:"draft"`
	Merged    bool   `json:"merged"`
	CreatedAt string `json:"created_at,omitempty"`
	URL       string `json:"url,omitempty"`
	Body      string `json:"body,omitempty" mcp:"prose"`
}

// PullList is a page of pull requests.
type PullList struct {
	Pulls []Pull `json:"pulls"`
	Note  string `json:"note,omitempty"`
}

// ListPullsIn filters a repository's pull requests.
type ListPullsIn struct {
	RepoArg
	State string `json:"state,omitempty" jsonschema:"open, closed or all (default open)"`
	Paging
	FieldsArg
}

// Release is a release; Body and Assets only in release_view.
type Release struct {
	Tag         string  `json:"tag"`
	Name        string  `json:"name"`
	Draft       bool    `json:"draft"`
	Prerelease  bool    `json:"prerelease"`
	Author      string  `json:"author,omitempty"`
	PublishedAt string  `json:"published_at,omitempty"`
	URL         string  `json:"url,omitempty"`
	Body        string  `json:"body,omitempty" mcp:"prose"`
	Assets      []Asset `json:"assets,omitempty"`
}

// Asset is a file of a release.
type Asset struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
	URL  string `json:"url,omitempty"`
}

// ReleaseList is a page of releases.
type ReleaseList struct {
	Releases []Release `json:"releases"`
	Note     string    `json:"note,omitempty"`
}

// ReleaseIn names a release by its tag.
type ReleaseIn struct {
	RepoArg
	Tag string `json:"tag" jsonschema:"the release's tag"`
}

func pullTools() []toolDef {
	return []toolDef{
		handle("prs_list", listPulls),
		handle("pr_view", viewPull),
	}
}

func releaseTools() []toolDef {
	return []toolDef{
		handle("releases_list", listReleases),
		handle("release_view", viewRelease),
	}
}

// pullOf is a pull request as t lets the model see it.
func (t trust) pullOf(p *client.PullRequest) Pull {
	return Pull{Number: p.Number, Title: t.title(p.User.Login, p.Title), State: p.State, Author: p.User.Login,
		Head: t.head(p.User.Login, p.Head), Base: p.Base.Ref,
		Draft: p.Draft, Merged: p.Merged, CreatedAt: when(p.CreatedAt), URL: p.HTMLURL}
}

func listPulls(ctx context.Context, s *Server, in ListPullsIn) (PullList, error) {
	c, name, err := s.repo(ctx, in.RepoArg)
	if err != nil {
		return PullList{}, err
	}
	lo := listOptions()
	ps, note, err := pageOf(ctx, c.Pulls.List(ctx, name, client.PullListOptions{ListOptions: lo, State: in.State}), in.Paging, lo.Pages)
	if err != nil {
		return PullList{}, err
	}
	trusted, err := s.trusted(ctx, c, name)
	return PullList{Pulls: each(ps, trusted.pullOf), Note: note}, err
}

func viewPull(ctx context.Context, s *Server, in IssueIn) (Pull, error) {
	c, name, err := s.repo(ctx, in.RepoArg)
	if err != nil {
		return Pull{}, err
	}
	p, err := c.Pulls.Get(ctx, name, in.Number)
	if err != nil {
		return Pull{}, err
	}
	trusted, err := s.trusted(ctx, c, name)
	if err != nil {
		return Pull{}, err
	}
	out := trusted.pullOf(p)
	out.Body = trusted.body(p.User.Login, p.Body)
	return out, nil
}

// releaseOf is a release as t lets the model see it.
func (t trust) releaseOf(r *client.Release) Release {
	return Release{Tag: r.TagName, Name: t.line("name", r.Author.Login, r.Name), Draft: r.Draft, Prerelease: r.Prerelease, Author: r.Author.Login,
		PublishedAt: when(r.PublishedAt), URL: r.HTMLURL}
}

func listReleases(ctx context.Context, s *Server, in RepoPagingIn) (ReleaseList, error) {
	c, name, err := s.repo(ctx, in.RepoArg)
	if err != nil {
		return ReleaseList{}, err
	}
	lo := listOptions()
	rs, note, err := pageOf(ctx, c.Releases.List(ctx, name, lo), in.Paging, lo.Pages)
	if err != nil {
		return ReleaseList{}, err
	}
	trusted, err := s.trusted(ctx, c, name)
	return ReleaseList{Releases: each(rs, trusted.releaseOf), Note: note}, err
}

// viewRelease finds the release through the list: the spec has no
// by-tag endpoint.
func viewRelease(ctx context.Context, s *Server, in ReleaseIn) (Release, error) {
	c, name, err := s.repo(ctx, in.RepoArg)
	if err != nil {
		return Release{}, err
	}
	trusted, err := s.trusted(ctx, c, name)
	if err != nil {
		return Release{}, err
	}
	for r, err := range c.Releases.List(ctx, name, client.ListOptions{PerPage: MaxPerPage}) {
		if err != nil {
			return Release{}, err
		}
		if r.TagName != in.Tag {
			continue
		}
		out := trusted.releaseOf(r)
		out.Body = trusted.body(r.Author.Login, r.Body)
		for _, a := range r.Assets {
			out.Assets = append(out.Assets, Asset{Name: a.Name, Size: a.Size, URL: a.BrowserDownloadURL})
		}
		return out, nil
	}
	return Release{}, fmt.Errorf("no release of tag %q in %s; see releases_list", in.Tag, name)
}
