package store

import "time"

// Issue is an issue of a repository, numbered per repository.
type Issue struct {
	ID        int64      `json:"id"`
	RepoID    int64      `json:"repo_id"`
	Number    int64      `json:"number"`
	Title     string     `json:"title"`
	Body      string     `json:"body"`
	State     string     `json:"state"`
	AuthorID  int64      `json:"author_id"`
	Author    string     `json:"author"`
	Comments  int        `json:"comments"`
	CreatedAt time.Time  `json:"created_at"`
	UpdatedAt time.Time  `json:"updated_at"`
	ClosedAt  *time.Time `json:"closed_at"`
	ClosedBy  string     `json:"closed_by"`
	// Rev counts the changes to the issue, so encodings can be cached.
	Rev int64 `json:"rev"`
}

// Comment is a comment on an issue.
type Comment struct {
	ID        int64     `json:"id"`
	IssueID   int64     `json:"issue_id"`
	Body      string    `json:"body"`
	AuthorID  int64     `json:"author_id"`
	Author    string    `json:"author"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Issue states.
const (
	StateOpen   = "open"
	StateClosed = "closed"
)

// CreateIssue opens an issue with the repository's next number. at, when
// not zero, backdates it (seeding).
func (s *Store) CreateIssue(repoID int64, author User, title, body string, at time.Time) (Issue, error) {
	var out Issue
	err := s.update(func(t *tx) error {
		r, ok := s.d.Repos[repoID]
		if !ok {
			return NotFound("repository not found")
		}
		if at.IsZero() {
			at = s.Now()
		}
		r.LastIssue++
		i := &Issue{ID: s.id(), RepoID: repoID, Number: r.LastIssue, Title: title, Body: body, State: StateOpen,
			AuthorID: author.ID, Author: author.Login, CreatedAt: at, UpdatedAt: at, Rev: 1}
		s.d.Issues[i.ID] = i
		s.issuesByRepo[repoID] = append(s.issuesByRepo[repoID], i)
		t.put("repo", r.ID, r)
		t.put("issue", i.ID, i)
		out = *i
		return nil
	})
	return out, err
}

// Issues lists a page of a repository's issues in state ("open",
// "closed" or "all"), newest first: bounds gets the number of matching
// issues and returns the page's bounds among them.
func (s *Store) Issues(repoID int64, state string, bounds func(total int) (lo, hi int, err error)) ([]Issue, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	l := s.issuesByRepo[repoID]
	total := len(l)
	if state != "all" {
		total = 0
		for _, i := range l {
			if i.State == state {
				total++
			}
		}
	}
	lo, hi, err := bounds(total)
	if err != nil {
		return nil, err
	}
	out := make([]Issue, 0, hi-lo)
	n := 0
	for k := len(l) - 1; k >= 0 && n < hi; k-- {
		if state == "all" || l[k].State == state {
			if n >= lo {
				out = append(out, *l[k])
			}
			n++
		}
	}
	return out, nil
}

// IssueByNumber finds an issue and its comments.
func (s *Store) IssueByNumber(repoID, number int64) (Issue, []Comment, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	i := s.issueByNumber(repoID, number)
	if i == nil {
		return Issue{}, nil, false
	}
	cs := make([]Comment, 0, len(s.commentsOf[i.ID]))
	for _, c := range s.commentsOf[i.ID] {
		cs = append(cs, *c)
	}
	return *i, cs, true
}

func (s *Store) issueByNumber(repoID, number int64) *Issue {
	l := s.issuesByRepo[repoID]
	// Numbers are dense from 1 unless issues were deleted with their repo.
	if number >= 1 && number <= int64(len(l)) && l[number-1].Number == number {
		return l[number-1]
	}
	for _, i := range l {
		if i.Number == number {
			return i
		}
	}
	return nil
}

// IssuePatch holds editable issue fields; nil leaves one as is.
type IssuePatch struct {
	Title, Body, State *string
}

// UpdateIssue edits an issue; by is who did it (for closed_by).
func (s *Store) UpdateIssue(repoID, number int64, by User, p IssuePatch) (Issue, error) {
	var out Issue
	err := s.update(func(t *tx) error {
		i := s.issueByNumber(repoID, number)
		if i == nil {
			return NotFound("issue #%d not found", number)
		}
		now := s.Now()
		if p.Title != nil {
			i.Title = *p.Title
		}
		if p.Body != nil {
			i.Body = *p.Body
		}
		if p.State != nil && *p.State != i.State {
			i.State = *p.State
			if i.State == StateClosed {
				i.ClosedAt, i.ClosedBy = &now, by.Login
			} else {
				i.ClosedAt, i.ClosedBy = nil, ""
			}
		}
		i.UpdatedAt = now
		i.Rev++
		t.put("issue", i.ID, i)
		out = *i
		return nil
	})
	return out, err
}

// AddComment comments on an issue. at, when not zero, backdates it.
func (s *Store) AddComment(repoID, number int64, author User, body string, at time.Time) (Comment, error) {
	var out Comment
	err := s.update(func(t *tx) error {
		i := s.issueByNumber(repoID, number)
		if i == nil {
			return NotFound("issue #%d not found", number)
		}
		if at.IsZero() {
			at = s.Now()
		}
		c := &Comment{ID: s.id(), IssueID: i.ID, Body: body, AuthorID: author.ID, Author: author.Login, CreatedAt: at, UpdatedAt: at}
		s.d.Comments[c.ID] = c
		s.commentsOf[i.ID] = append(s.commentsOf[i.ID], c)
		i.Comments++
		i.Rev++
		if at.After(i.UpdatedAt) {
			i.UpdatedAt = at
		}
		t.put("comment", c.ID, c)
		t.put("issue", i.ID, i)
		out = *c
		return nil
	})
	return out, err
}

// OpenIssueCount counts a repository's open issues.
func (s *Store) OpenIssueCount(repoID int64) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	n := 0
	for _, i := range s.issuesByRepo[repoID] {
		if i.State == StateOpen {
			n++
		}
	}
	return n
}
