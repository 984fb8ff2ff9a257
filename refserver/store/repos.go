package store

import (
	"sort"
	"strings"
	"time"
)

// Repo is a repository's record; its git data lives in the git layer,
// keyed by ID.
type Repo struct {
	ID            int64     `json:"id"`
	OwnerID       int64     `json:"owner_id"`
	Owner         string    `json:"owner"`
	Name          string    `json:"name"`
	Description   string    `json:"description"`
	Homepage      string    `json:"homepage"`
	Private       bool      `json:"private"`
	DefaultBranch string    `json:"default_branch"`
	CreatedAt     time.Time `json:"created_at"`
	UpdatedAt     time.Time `json:"updated_at"`
	PushedAt      time.Time `json:"pushed_at"`
	// Per-repo counters: issues and pull requests are numbered
	// separately; runs have run_number.
	LastIssue int64 `json:"last_issue"`
	LastPull  int64 `json:"last_pull"`
	LastRun   int64 `json:"last_run"`
}

// FullName is owner/name.
func (r *Repo) FullName() string { return r.Owner + "/" + r.Name }

// Collaborator grants a user a permission on a repository.
type Collaborator struct {
	ID         int64     `json:"id"`
	RepoID     int64     `json:"repo_id"`
	UserID     int64     `json:"user_id"`
	Login      string    `json:"login"`
	Permission string    `json:"permission"`
	CreatedAt  time.Time `json:"created_at"`
}

// Permissions, weakest first.
const (
	PermRead  = "read"
	PermWrite = "write"
	PermAdmin = "admin"
)

// PermRank orders permissions: 0 none, 1 read, 2 write, 3 admin.
func PermRank(p string) int {
	switch p {
	case PermRead:
		return 1
	case PermWrite:
		return 2
	case PermAdmin:
		return 3
	}
	return 0
}

// CreateRepo records a new repository owned by owner.
func (s *Store) CreateRepo(owner User, name, description string, private bool) (Repo, error) {
	var out Repo
	err := s.update(func(t *tx) error {
		if _, taken := s.repoByName[repoKey(owner.Login, name)]; taken {
			return Conflict("repository %s/%s already exists", owner.Login, name)
		}
		now := s.Now()
		r := &Repo{ID: s.id(), OwnerID: owner.ID, Owner: owner.Login, Name: name, Description: description,
			Private: private, DefaultBranch: "main", CreatedAt: now, UpdatedAt: now}
		s.d.Repos[r.ID] = r
		s.repoByName[repoKey(r.Owner, r.Name)] = r
		t.put("repo", r.ID, r)
		out = *r
		return nil
	})
	return out, err
}

// RepoByName finds a repository by owner and name, ignoring case.
func (s *Store) RepoByName(owner, name string) (Repo, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r, ok := s.repoByName[repoKey(owner, name)]
	if !ok {
		return Repo{}, false
	}
	return *r, true
}

// RepoByID finds a repository by ID.
func (s *Store) RepoByID(id int64) (Repo, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r, ok := s.d.Repos[id]
	if !ok {
		return Repo{}, false
	}
	return *r, true
}

// Repos lists repositories keep accepts, most recently updated first.
func (s *Store) Repos(keep func(r *Repo, perm string) bool, userID int64) []Repo {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []Repo
	for _, r := range s.d.Repos {
		if keep(r, s.permission(r, userID)) {
			out = append(out, *r)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].UpdatedAt.Equal(out[j].UpdatedAt) {
			return out[i].UpdatedAt.After(out[j].UpdatedAt)
		}
		return out[i].ID > out[j].ID
	})
	return out
}

// Permission is the user's collaborator permission on the repository
// ("admin" for its owner, "" for none).
func (s *Store) Permission(repoID, userID int64) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r, ok := s.d.Repos[repoID]
	if !ok {
		return ""
	}
	return s.permission(r, userID)
}

func (s *Store) permission(r *Repo, userID int64) string {
	if r.OwnerID == userID {
		return PermAdmin
	}
	for _, c := range s.collabsOf[r.ID] {
		if c.UserID == userID {
			return c.Permission
		}
	}
	return ""
}

// RepoPatch holds editable repository fields; nil leaves one as is.
type RepoPatch struct {
	Description, Homepage, DefaultBranch *string
	Private                              *bool
}

// UpdateRepo changes the given fields.
func (s *Store) UpdateRepo(id int64, p RepoPatch) (Repo, error) {
	var out Repo
	err := s.update(func(t *tx) error {
		r, ok := s.d.Repos[id]
		if !ok {
			return NotFound("repository not found")
		}
		if p.Description != nil {
			r.Description = *p.Description
		}
		if p.Homepage != nil {
			r.Homepage = *p.Homepage
		}
		if p.DefaultBranch != nil {
			r.DefaultBranch = *p.DefaultBranch
		}
		if p.Private != nil {
			r.Private = *p.Private
		}
		r.UpdatedAt = s.Now()
		t.put("repo", r.ID, r)
		out = *r
		return nil
	})
	return out, err
}

// TouchRepo records a push.
func (s *Store) TouchRepo(id int64) {
	s.update(func(t *tx) error {
		if r, ok := s.d.Repos[id]; ok {
			r.UpdatedAt, r.PushedAt = s.Now(), s.Now()
			t.put("repo", r.ID, r)
		}
		return nil
	})
}

// DeleteRepo removes a repository and everything in it.
func (s *Store) DeleteRepo(id int64) error {
	return s.update(func(t *tx) error {
		r, ok := s.d.Repos[id]
		if !ok {
			return NotFound("repository not found")
		}
		s.deleteRepo(t, r)
		return nil
	})
}

func (s *Store) deleteRepo(t *tx, r *Repo) {
	for _, c := range s.collabsOf[r.ID] {
		delete(s.d.Collabs, c.ID)
		t.del("collaborator", c.ID)
	}
	delete(s.collabsOf, r.ID)
	for _, i := range s.issuesByRepo[r.ID] {
		for _, c := range s.commentsOf[i.ID] {
			delete(s.d.Comments, c.ID)
			t.del("comment", c.ID)
		}
		delete(s.commentsOf, i.ID)
		delete(s.d.Issues, i.ID)
		t.del("issue", i.ID)
	}
	delete(s.issuesByRepo, r.ID)
	for _, p := range s.pullsByRepo[r.ID] {
		delete(s.d.Pulls, p.ID)
		t.del("pull", p.ID)
	}
	delete(s.pullsByRepo, r.ID)
	for _, rel := range s.d.Releases {
		if rel.RepoID == r.ID {
			delete(s.d.Releases, rel.ID)
			t.del("release", rel.ID)
		}
	}
	for _, run := range s.runsByRepo[r.ID] {
		for _, j := range run.Plan.Jobs {
			delete(s.runOfJob, j.ID)
		}
		delete(s.d.Runs, run.ID)
		t.del("run", run.ID)
	}
	delete(s.runsByRepo, r.ID)
	delete(s.d.Repos, r.ID)
	delete(s.repoByName, repoKey(r.Owner, r.Name))
	t.del("repo", r.ID)
}

// Collaborators lists a repository's collaborators, oldest first.
func (s *Store) Collaborators(repoID int64) []Collaborator {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]Collaborator, 0, len(s.collabsOf[repoID]))
	for _, c := range s.collabsOf[repoID] {
		out = append(out, *c)
	}
	return out
}

// SetCollaborator grants u perm on the repository, or changes the
// permission already granted; created reports a new grant.
func (s *Store) SetCollaborator(repoID int64, u User, perm string) (created bool, err error) {
	err = s.update(func(t *tx) error {
		r, ok := s.d.Repos[repoID]
		if !ok {
			return NotFound("repository not found")
		}
		if r.OwnerID == u.ID {
			return Invalid("%s owns %s and needs no collaborator permission", u.Login, r.FullName())
		}
		for _, c := range s.collabsOf[repoID] {
			if c.UserID == u.ID {
				c.Permission = perm
				t.put("collaborator", c.ID, c)
				return nil
			}
		}
		c := &Collaborator{ID: s.id(), RepoID: repoID, UserID: u.ID, Login: u.Login, Permission: perm, CreatedAt: s.Now()}
		s.d.Collabs[c.ID] = c
		s.collabsOf[repoID] = append(s.collabsOf[repoID], c)
		t.put("collaborator", c.ID, c)
		created = true
		return nil
	})
	return created, err
}

// RemoveCollaborator takes a user's permission away.
func (s *Store) RemoveCollaborator(repoID, userID int64) error {
	return s.update(func(t *tx) error {
		for _, c := range s.collabsOf[repoID] {
			if c.UserID == userID {
				s.removeCollab(t, c)
				return nil
			}
		}
		return NotFound("not a collaborator")
	})
}

func (s *Store) removeCollab(t *tx, c *Collaborator) {
	l := s.collabsOf[c.RepoID]
	for i, x := range l {
		if x.ID == c.ID {
			s.collabsOf[c.RepoID] = append(l[:i:i], l[i+1:]...)
			break
		}
	}
	delete(s.d.Collabs, c.ID)
	t.del("collaborator", c.ID)
}

// ValidName reports why name cannot name a repository ("" when it can):
// letters, digits, '.', '-' and '_', at most 100 characters, not "." or
// "..", not ending in ".git".
func ValidName(name string) string {
	switch {
	case name == "":
		return "name is required"
	case len(name) > 100:
		return "name must be at most 100 characters"
	case name == "." || name == "..":
		return "name cannot be . or .."
	case strings.HasSuffix(strings.ToLower(name), ".git"):
		return "name cannot end in .git"
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			return "name may contain only letters, digits, '.', '-' and '_'"
		}
	}
	return ""
}

// ValidLogin reports why login cannot name an account ("" when it can):
// 1 to 39 lower-case letters and digits, with single '.', '-' or '_'
// between them — the shape a registry namespace needs.
func ValidLogin(login string) string {
	if login == "" {
		return "username is required"
	}
	if len(login) > 39 {
		return "username must be at most 39 characters"
	}
	prevSep := true
	for i, c := range login {
		sep := c == '.' || c == '-' || c == '_'
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
		case c >= 'A' && c <= 'Z':
			return "username must be lower-case"
		case sep && !prevSep && i < len(login)-1:
		default:
			return "username may contain only a-z, 0-9 and single '.', '-' or '_' between them"
		}
		prevSep = sep
	}
	return ""
}
