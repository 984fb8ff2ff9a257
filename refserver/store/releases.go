package store

import (
	"sort"
	"strings"
	"time"
)

// Release is a named, tagged version of a repository.
type Release struct {
	ID          int64      `json:"id"`
	RepoID      int64      `json:"repo_id"`
	TagName     string     `json:"tag_name"`
	Target      string     `json:"target_commitish"`
	Name        string     `json:"name"`
	Body        string     `json:"body"`
	Draft       bool       `json:"draft"`
	Prerelease  bool       `json:"prerelease"`
	AuthorID    int64      `json:"author_id"`
	Author      string     `json:"author"`
	CreatedAt   time.Time  `json:"created_at"`
	PublishedAt *time.Time `json:"published_at"`
}

// CreateRelease records a release; a tag already released is a conflict.
// A zero CreatedAt is now; a release that is not a draft is published
// when created.
func (s *Store) CreateRelease(repoID int64, rel Release) (Release, error) {
	var out Release
	err := s.update(func(t *tx) error {
		if _, ok := s.d.Repos[repoID]; !ok {
			return NotFound("repository not found")
		}
		for _, x := range s.d.Releases {
			if x.RepoID == repoID && strings.EqualFold(x.TagName, rel.TagName) {
				return Conflict("a release for tag %s already exists", rel.TagName)
			}
		}
		if rel.CreatedAt.IsZero() {
			rel.CreatedAt = s.Now()
		}
		if !rel.Draft && rel.PublishedAt == nil {
			at := rel.CreatedAt
			rel.PublishedAt = &at
		}
		rel.ID, rel.RepoID = s.id(), repoID
		r := &rel
		s.d.Releases[r.ID] = r
		t.put("release", r.ID, r)
		out = rel
		return nil
	})
	return out, err
}

// Releases lists a repository's releases, newest first.
func (s *Store) Releases(repoID int64) []Release {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []Release
	for _, r := range s.d.Releases {
		if r.RepoID == repoID {
			out = append(out, *r)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].CreatedAt.Equal(out[j].CreatedAt) {
			return out[i].CreatedAt.After(out[j].CreatedAt)
		}
		return out[i].ID > out[j].ID
	})
	return out
}

// ReleaseByID finds a release of a repository.
func (s *Store) ReleaseByID(repoID, id int64) (Release, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r, ok := s.d.Releases[id]
	if !ok || r.RepoID != repoID {
		return Release{}, false
	}
	return *r, true
}
