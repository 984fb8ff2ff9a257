package client

import (
	"context"
	"iter"
	"net/url"
)

// CommitFile is a file a commit changed, as the service lists it
// (GitHub's names). The counts are nil when the service does not send
// them (a binary file).
type CommitFile struct {
	Filename  string `json:"filename"`
	Status    string `json:"status"` // added, modified, removed, renamed
	Additions *int   `json:"additions"`
	Deletions *int   `json:"deletions"`
}

// CommitDetail is one commit with its parents and the files it changed.
type CommitDetail struct {
	Commit
	Parents []struct {
		SHA string `json:"sha"`
	} `json:"parents"`
	Files []CommitFile `json:"files"`
}

// Commit reads one commit, by hash or ref (GET .../commits/{sha}; not in
// the spec: GitHub's, which the reference server serves).
func (s *ReposService) Commit(ctx context.Context, repo RepoName, ref string) (*CommitDetail, error) {
	return getOne[CommitDetail](s.c, ctx, repo.path("commits", url.PathEscape(ref)))
}

// CommitsFrom iterates over the history of ref, newest first (GitHub's
// `sha` parameter of the commit list).
func (s *ReposService) CommitsFrom(ctx context.Context, repo RepoName, ref string, opts ListOptions) iter.Seq2[*Commit, error] {
	q := url.Values{}
	if ref != "" {
		q.Set("sha", ref)
	}
	return list[Commit](s.c, ctx, repo.path("commits"), opts.values(q), opts.Pages)
}
