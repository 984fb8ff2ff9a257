package store

import "time"

// Pull is a pull request: a request to merge Head into Base.
type Pull struct {
	ID        int64      `json:"id"`
	RepoID    int64      `json:"repo_id"`
	Number    int64      `json:"number"`
	Title     string     `json:"title"`
	Body      string     `json:"body"`
	State     string     `json:"state"`
	AuthorID  int64      `json:"author_id"`
	Author    string     `json:"author"`
	Head      string     `json:"head"`
	HeadSHA   string     `json:"head_sha"`
	Base      string     `json:"base"`
	BaseSHA   string     `json:"base_sha"`
	Draft     bool       `json:"draft"`
	Merged    bool       `json:"merged"`
	CreatedAt time.Time  `json:"created_at"`
	UpdatedAt time.Time  `json:"updated_at"`
	ClosedAt  *time.Time `json:"closed_at"`
	MergedAt  *time.Time `json:"merged_at"`
}

// CreatePull records a pull request with the repository's next number.
// p carries everything but ID, RepoID and Number; a zero CreatedAt is now.
func (s *Store) CreatePull(repoID int64, p Pull) (Pull, error) {
	var out Pull
	err := s.update(func(t *tx) error {
		r, ok := s.d.Repos[repoID]
		if !ok {
			return NotFound("repository not found")
		}
		if p.CreatedAt.IsZero() {
			p.CreatedAt = s.Now()
		}
		if p.UpdatedAt.IsZero() {
			p.UpdatedAt = p.CreatedAt
		}
		if p.State == "" {
			p.State = StateOpen
		}
		r.LastPull++
		p.ID, p.RepoID, p.Number = s.id(), repoID, r.LastPull
		pp := &p
		s.d.Pulls[p.ID] = pp
		s.pullsByRepo[repoID] = append(s.pullsByRepo[repoID], pp)
		t.put("repo", r.ID, r)
		t.put("pull", p.ID, pp)
		out = p
		return nil
	})
	return out, err
}

// Pulls lists a repository's pull requests in state ("open", "closed" or
// "all"), newest first.
func (s *Store) Pulls(repoID int64, state string) []Pull {
	s.mu.RLock()
	defer s.mu.RUnlock()
	l := s.pullsByRepo[repoID]
	out := make([]Pull, 0, len(l))
	for k := len(l) - 1; k >= 0; k-- {
		if state == "all" || l[k].State == state {
			out = append(out, *l[k])
		}
	}
	return out
}

// PullByNumber finds a pull request.
func (s *Store) PullByNumber(repoID, number int64) (Pull, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, p := range s.pullsByRepo[repoID] {
		if p.Number == number {
			return *p, true
		}
	}
	return Pull{}, false
}
