package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/forgehq/forge/client"
)

// Issue is an issue as the tools show it; Body and Comments only in
// issue_view.
type Issue struct {
	Number    int64     `json:"number"`
	Title     string    `json:"title"`
	State     string    `json:"state"`
	Author    string    `json:"author"`
	CreatedAt string    `json:"created_at,omitempty"`
	Comments  int64     `json:"comments"`
	URL       string    `json:"url,omitempty"`
	Body      string    `json:"body,omitempty" mcp:"prose"`
	Excerpt   string    `json:"body_excerpt,omitempty" mcp:"excerpt"`
	Thread    []Comment `json:"comments_list,omitempty"`
	Note      string    `json:"note,omitempty"`
}

// Comment is one comment of an issue.
type Comment struct {
	Author    string `json:"author"`
	CreatedAt string `json:"created_at,omitempty"`
	Body      string `json:"body" mcp:"comment"`
}

// IssueList is a page of issues.
type IssueList struct {
	Issues []Issue `json:"issues"`
	Note   string  `json:"note,omitempty"`
}

// ListIssuesIn filters a repository's issues.
type ListIssuesIn struct {
	RepoArg
	State  string `json:"state,omitempty" jsonschema:"open, closed or all (default open)"`
	Author string `json:"author,omitempty" jsonschema:"only issues opened by this login"`
	Search string `json:"search,omitempty" jsonschema:"only issues whose title holds this text (any case)"`
	Bodies bool   `json:"bodies,omitempty" jsonschema:"include each issue's body, its first 1 KiB (saves an issue_view per issue)"`
	Paging
	FieldsArg
}

// IssueIn names an issue.
type IssueIn struct {
	RepoArg
	Number int64 `json:"number" jsonschema:"the issue's number"`
}

// ViewIssueIn names an issue and a page of its comments.
type ViewIssueIn struct {
	IssueIn
	Page int `json:"page,omitempty" jsonschema:"page of the comments (10 a page), from 1"`
}

// CreateIssueIn is a new issue.
type CreateIssueIn struct {
	RepoArg
	Title string `json:"title" jsonschema:"the issue's title"`
	Body  string `json:"body,omitempty" jsonschema:"the issue's text, markdown"`
}

// CommentIn is a new comment.
type CommentIn struct {
	IssueIn
	Body string `json:"body" jsonschema:"the comment, markdown"`
}

func issueTools() []toolDef {
	return []toolDef{
		handle("issues_list", listIssues),
		handle("issue_view", viewIssue),
		handle("issue_create", createIssue),
		handle("issue_comment", commentIssue),
		handle("issue_close", func(ctx context.Context, s *Server, in IssueIn) (Issue, error) {
			return setIssueState(ctx, s, in, "closed")
		}),
		handle("issue_reopen", func(ctx context.Context, s *Server, in IssueIn) (Issue, error) {
			return setIssueState(ctx, s, in, "open")
		}),
	}
}

// issueOf is an issue as t lets the model see it (its title withheld
// under lockdown when its author may not write).
func (t trust) issueOf(is *client.Issue) Issue {
	return Issue{Number: is.Number, Title: t.title(is.User.Login, is.Title), State: is.State, Author: is.User.Login,
		CreatedAt: when(is.CreatedAt), Comments: is.Comments, URL: is.HTMLURL}
}

func listIssues(ctx context.Context, s *Server, in ListIssuesIn) (IssueList, error) {
	c, name, err := s.repo(ctx, in.RepoArg)
	if err != nil {
		return IssueList{}, err
	}
	trusted, err := s.trusted(ctx, c, name)
	if err != nil {
		return IssueList{}, err
	}
	lo := listOptions()
	seq := c.Issues.List(ctx, name, client.IssueListOptions{ListOptions: lo, State: in.State})
	search := strings.ToLower(in.Search)
	scanned := 0
	filtered := func(yield func(*client.Issue, error) bool) {
		for is, err := range seq {
			if scanned++; scanned > MaxScan {
				return
			}
			if err == nil && (in.Author != "" && !strings.EqualFold(is.User.Login, in.Author) ||
				// The title the model may see: a withheld one's words
				// would show through a search that matched them.
				search != "" && !strings.Contains(strings.ToLower(trusted.title(is.User.Login, is.Title)), search)) {
				continue
			}
			if !yield(is, err) {
				return
			}
		}
	}
	if in.Author != "" || search != "" {
		lo.Pages = nil // the service's total is not the filtered list's
	}
	iss, note, err := pageOf(ctx, filtered, in.Paging, lo.Pages)
	if err != nil {
		return IssueList{}, err
	}
	if scanned > MaxScan {
		note = fmt.Sprintf("searched the first %d issues only; narrow the list with state", MaxScan)
	}
	out := IssueList{Issues: each(iss, trusted.issueOf), Note: note}
	if in.Bodies {
		for i, is := range iss {
			out.Issues[i].Excerpt = trusted.body(is.User.Login, is.Body)
		}
	}
	return out, nil
}

func viewIssue(ctx context.Context, s *Server, in ViewIssueIn) (Issue, error) {
	c, name, err := s.repo(ctx, in.RepoArg)
	if err != nil {
		return Issue{}, err
	}
	is, err := c.Issues.Get(ctx, name, in.Number)
	if err != nil {
		return Issue{}, err
	}
	trusted, err := s.trusted(ctx, c, name)
	if err != nil {
		return Issue{}, err
	}
	out := trusted.issueOf(is)
	out.Body = trusted.body(is.User.Login, is.Body)
	page := max(in.Page, 1)
	first := (page - 1) * CommentsPerPage
	out.Thread = []Comment{}
	for i := first; i < len(is.CommentsList) && i < first+CommentsPerPage; i++ {
		cm := is.CommentsList[i]
		out.Thread = append(out.Thread, Comment{Author: cm.User.Login, CreatedAt: when(cm.CreatedAt), Body: trusted.body(cm.User.Login, cm.Body)})
	}
	if n := len(is.CommentsList); first+CommentsPerPage < n {
		out.Note = fmt.Sprintf("truncated: comments %d-%d of %d shown; ask with page %d for more", first+1, first+CommentsPerPage, n, page+1)
	}
	return out, nil
}

func createIssue(ctx context.Context, s *Server, in CreateIssueIn) (Issue, error) {
	c, name, err := s.repo(ctx, in.RepoArg)
	if err != nil {
		return Issue{}, err
	}
	if strings.TrimSpace(in.Title) == "" {
		return Issue{}, fmt.Errorf("an issue needs a title")
	}
	is, err := c.Issues.Create(ctx, name, client.IssueCreate{Title: in.Title, Body: in.Body})
	if err != nil {
		return Issue{}, err
	}
	return trust{}.issueOf(is), nil // the title the model itself just wrote
}

func commentIssue(ctx context.Context, s *Server, in CommentIn) (Comment, error) {
	c, name, err := s.repo(ctx, in.RepoArg)
	if err != nil {
		return Comment{}, err
	}
	if strings.TrimSpace(in.Body) == "" {
		return Comment{}, fmt.Errorf("a comment needs a body")
	}
	cm, err := c.Issues.Comment(ctx, name, in.Number, in.Body)
	if err != nil {
		return Comment{}, err
	}
	return Comment{Author: cm.User.Login, CreatedAt: when(cm.CreatedAt), Body: cm.Body}, nil
}

func setIssueState(ctx context.Context, s *Server, in IssueIn, state string) (Issue, error) {
	c, name, err := s.repo(ctx, in.RepoArg)
	if err != nil {
		return Issue{}, err
	}
	is, err := c.Issues.SetState(ctx, name, in.Number, state)
	if err != nil {
		return Issue{}, err
	}
	trusted, err := s.trusted(ctx, c, name)
	return trusted.issueOf(is), err
}
