package client

import (
	"context"
	"iter"
)

// Release is a published release. The spec does not show its fields;
// these are GitHub's names, and RawJSON holds whatever the server sent.
type Release struct {
	Raw
	ID              int64          `json:"id"`
	TagName         string         `json:"tag_name"`
	Name            string         `json:"name"`
	Body            string         `json:"body"`
	Draft           bool           `json:"draft"`
	Prerelease      bool           `json:"prerelease"`
	TargetCommitish string         `json:"target_commitish"`
	HTMLURL         string         `json:"html_url"`
	Author          User           `json:"author"`
	CreatedAt       Time           `json:"created_at"`
	PublishedAt     Time           `json:"published_at"`
	Assets          []ReleaseAsset `json:"assets"`
}

// ReleaseAsset is a file attached to a release.
type ReleaseAsset struct {
	ID                 int64  `json:"id"`
	Name               string `json:"name"`
	ContentType        string `json:"content_type"`
	Size               int64  `json:"size"`
	DownloadCount      int64  `json:"download_count"`
	BrowserDownloadURL string `json:"browser_download_url"`
}

// ReleasesService covers releases.
type ReleasesService struct{ c *Client }

// List iterates over a repository's releases.
func (s *ReleasesService) List(ctx context.Context, repo RepoName, opts ListOptions) iter.Seq2[*Release, error] {
	return list[Release](s.c, ctx, repo.path("releases"), opts.values(nil), opts.Pages)
}
