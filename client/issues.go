package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode"
)

// Issue is an issue of a repository.
type Issue struct {
	Raw
	ID        int64  `json:"id"`
	Number    int64  `json:"number"`
	Title     string `json:"title"`
	Body      string `json:"body"`
	State     string `json:"state"` // open or closed
	User      User   `json:"user"`
	CreatedAt Time   `json:"created_at"`
	Comments  int64  `json:"comments"` // count, in lists
	HTMLURL   string `json:"html_url"`
	// CommentsList is filled by a single-issue read.
	CommentsList []Comment `json:"comments_list"`
	// Not in the spec; GitHub's names.
	UpdatedAt Time `json:"updated_at"`
	ClosedAt  Time `json:"closed_at"`
}

// IsPullRequest reports whether the service answered a pull request as
// an issue: GitHub's and Gitea's issue endpoints cover pull requests
// (issues and pull requests share their numbers there) and mark them
// with a pull_request object. The reference server numbers the two apart
// and never marks one.
func (i *Issue) IsPullRequest() bool {
	var v struct {
		PullRequest json.RawMessage `json:"pull_request"`
	}
	if decode(i.raw, &v) != nil {
		return false
	}
	pr := strings.TrimSpace(string(v.PullRequest))
	return pr != "" && pr != "null" && pr != "false"
}

// Comment is a comment on an issue.
type Comment struct {
	Raw
	ID        int64  `json:"id"`
	Body      string `json:"body"`
	User      User   `json:"user"`
	CreatedAt Time   `json:"created_at"`
	HTMLURL   string `json:"html_url"` // not in the spec
}

// IssueCreate is the body of POST .../issues.
type IssueCreate struct {
	Title string `json:"title"`
	Body  string `json:"body,omitempty"`
}

// IssueListOptions filter an issue list.
type IssueListOptions struct {
	ListOptions
	// State is open, closed or all; "" lets the server pick (open).
	State string
}

// IssuesService covers issues and their comments.
type IssuesService struct{ c *Client }

func issuePath(repo RepoName, number int64, more ...string) string {
	return repo.path(append([]string{"issues", strconv.FormatInt(number, 10)}, more...)...)
}

// List iterates over a repository's issues.
func (s *IssuesService) List(ctx context.Context, repo RepoName, opts IssueListOptions) iter.Seq2[*Issue, error] {
	q := url.Values{}
	if opts.State != "" {
		q.Set("state", opts.State)
	}
	return list[Issue](s.c, ctx, repo.path("issues"), opts.values(q), opts.Pages)
}

// Create opens an issue.
func (s *IssuesService) Create(ctx context.Context, repo RepoName, issue IssueCreate) (*Issue, error) {
	return sendOne[Issue](s.c, ctx, http.MethodPost, repo.path("issues"), issue)
}

// Get reads one issue with its comments.
func (s *IssuesService) Get(ctx context.Context, repo RepoName, number int64) (*Issue, error) {
	return getOne[Issue](s.c, ctx, issuePath(repo, number))
}

// Comment adds a comment. The spec does not show the body's fields: the
// client sends the text once, under GitHub's "body" (the reference
// server's field too); only when the service refuses that with a 400 or
// 422 that names "comment" or calls "body" unknown does it send the text
// again, once, under "comment", which other services read. Nothing is
// remembered between calls. (Sending both fields at once made a service
// counting its request size count the text twice.) The answer's comment is
// returned when the server sends one, else a Comment holding only the
// body. An answer whose comment is there with an empty body means the
// service stored an empty comment: that is an error saying so.
func (s *IssuesService) Comment(ctx context.Context, repo RepoName, number int64, body string) (*Comment, error) {
	path := issuePath(repo, number, "comments")
	cm, err := sendOne[Comment](s.c, ctx, http.MethodPost, path, map[string]string{"body": body})
	if wantsCommentField(err) {
		cm, err = sendOne[Comment](s.c, ctx, http.MethodPost, path, map[string]string{"comment": body})
	}
	if err != nil {
		return cm, err
	}
	if cm.Body == "" && textSentEmpty(cm.RawJSON()) {
		return cm, fmt.Errorf("POST %s: the service stored the comment with no text: it reads the text from a field forge does not send (forge sends body, or comment when body is refused)", s.c.redact(path))
	}
	if cm.Body == "" {
		cm.Body = body
	}
	return cm, nil
}

// wantsCommentField reports whether a comment sent under "body" was
// refused by a service that reads its text from "comment": a 400 or 422
// whose message names the field comment, or says body is not a field it
// knows. Any other refusal (a body too long, no right to comment) is the
// answer.
func wantsCommentField(err error) bool {
	var e *Error
	if !errors.As(err, &e) || e.StatusCode != http.StatusBadRequest && e.StatusCode != http.StatusUnprocessableEntity {
		return false
	}
	m := strings.ToLower(e.Message)
	if hasWord(m, "comment") && containsAny(m, "missing", "required", "blank", "empty") {
		return true
	}
	return hasWord(m, "body") && containsAny(m, "unknown", "unrecognized", "unexpected", "not allowed", "not permitted", "invalid field")
}

// hasWord reports whether s holds w as a word of its own (not inside
// "comments" or "somebody").
func hasWord(s, w string) bool {
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && r != '_' }) {
		if f == w {
			return true
		}
	}
	return false
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// textSentEmpty reports whether a comment's answer holds its text field
// (body or comment), and empty: the service stored no text. An answer
// without the field says nothing of it.
func textSentEmpty(raw []byte) bool {
	var v map[string]any
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	seen := false
	for _, k := range []string{"body", "comment"} {
		if t, ok := v[k]; ok {
			if s, _ := t.(string); s != "" {
				return false
			}
			seen = true
		}
	}
	return seen
}

// SetState opens or closes an issue ("open" or "closed"). The answer's
// body is not shown in the spec: the issue is returned when the server
// sends it, else an Issue holding only the number and the new state.
func (s *IssuesService) SetState(ctx context.Context, repo RepoName, number int64, state string) (*Issue, error) {
	is, err := sendOne[Issue](s.c, ctx, http.MethodPost, issuePath(repo, number, "state"), map[string]string{"state": state})
	if err != nil {
		return nil, err
	}
	if is.Number == 0 {
		is.Number = number
	}
	if is.State == "" {
		is.State = state
	}
	return is, nil
}

// Close closes an issue.
func (s *IssuesService) Close(ctx context.Context, repo RepoName, number int64) (*Issue, error) {
	return s.SetState(ctx, repo, number, "closed")
}

// Reopen reopens an issue.
func (s *IssuesService) Reopen(ctx context.Context, repo RepoName, number int64) (*Issue, error) {
	return s.SetState(ctx, repo, number, "open")
}

// IssueEdit holds the fields an edit changes; nil fields stay as they
// are.
type IssueEdit struct {
	Title *string `json:"title,omitempty"`
	Body  *string `json:"body,omitempty"`
}

// Edit changes an issue's title or body: PATCH on the issue, which the
// specification does not list (GitHub's endpoint; the reference server
// has it). A service without it answers 404 or 405 (NotOffered).
func (s *IssuesService) Edit(ctx context.Context, repo RepoName, number int64, e IssueEdit) (*Issue, error) {
	return sendOne[Issue](s.c, ctx, http.MethodPatch, issuePath(repo, number), e)
}
