package client

import (
	"context"
	"iter"
	"net/url"
	"strconv"
	"strings"
)

// PullRequest is a pull request. The spec does not show its fields; these
// are GitHub's names, and RawJSON holds whatever the server sent.
type PullRequest struct {
	Raw
	ID        int64   `json:"id"`
	Number    int64   `json:"number"`
	Title     string  `json:"title"`
	Body      string  `json:"body"`
	State     string  `json:"state"` // open or closed (GitHub); merged is a flag
	User      User    `json:"user"`
	Head      PullRef `json:"head"`
	Base      PullRef `json:"base"`
	Draft     bool    `json:"draft"`
	Merged    bool    `json:"merged"`
	Mergeable *bool   `json:"mergeable"`
	HTMLURL   string  `json:"html_url"`
	Comments  int64   `json:"comments"`
	CreatedAt Time    `json:"created_at"`
	UpdatedAt Time    `json:"updated_at"`
	ClosedAt  Time    `json:"closed_at"`
	MergedAt  Time    `json:"merged_at"`
	MergedBy  *User   `json:"merged_by"` // GitHub's; nil when not sent
}

// PullRef is one side of a pull request.
type PullRef struct {
	Label string `json:"label"`
	Ref   string `json:"ref"`
	SHA   string `json:"sha"`
}

// PullListOptions filter a pull request list. State is open, closed,
// merged or all: GitHub's parameter (merged is asked as closed), sent only
// when set, and applied to the records too, as the spec shows no filter.
type PullListOptions struct {
	ListOptions
	State string
}

// PullsService covers pull requests.
type PullsService struct{ c *Client }

// List iterates over a repository's pull requests.
func (s *PullsService) List(ctx context.Context, repo RepoName, opts PullListOptions) iter.Seq2[*PullRequest, error] {
	q := url.Values{}
	state := strings.ToLower(opts.State)
	switch state {
	case "":
	case "merged":
		q.Set("state", "closed")
	default:
		q.Set("state", state)
	}
	seq := list[PullRequest](s.c, ctx, repo.path("pulls"), opts.values(q), opts.Pages)
	if state == "" || state == "all" {
		return seq
	}
	return keep(seq, opts.Pages, func(p *PullRequest) bool {
		switch state {
		case "open":
			return p.Open()
		case "merged":
			return p.IsMerged()
		}
		return !p.Open()
	})
}

// Get reads one pull request.
func (s *PullsService) Get(ctx context.Context, repo RepoName, number int64) (*PullRequest, error) {
	return getOne[PullRequest](s.c, ctx, repo.path("pulls", strconv.FormatInt(number, 10)))
}
