package store

import (
	"strings"
	"time"

	"github.com/forgehq/forge/refserver/ci"
)

// Run is a workflow run: what triggered it and its plan and clock, from
// which package ci computes its state at any moment.
type Run struct {
	ID     int64  `json:"id"`
	RepoID int64  `json:"repo_id"`
	Number int64  `json:"run_number"`
	Name   string `json:"name"`
	Title  string `json:"display_title"`
	Event  string `json:"event"`
	Branch string `json:"head_branch"`
	SHA    string `json:"head_sha"`
	Actor  string `json:"actor"`
	// ActorID is the actor's user ID; CreateRun fills it from Actor.
	// Runs recorded before it existed have 0 (see ActorIDOf).
	ActorID   int64     `json:"actor_id,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	Plan      ci.Plan   `json:"plan"`
	Clock     ci.Clock  `json:"clock"`
}

// CreateRun records a run, assigning its number and its jobs' IDs.
func (s *Store) CreateRun(repoID int64, run Run) (Run, error) {
	var out Run
	err := s.update(func(t *tx) error {
		r, ok := s.d.Repos[repoID]
		if !ok {
			return NotFound("repository not found")
		}
		if run.CreatedAt.IsZero() {
			run.CreatedAt = s.Now()
		}
		if u, ok := s.userByLogin[strings.ToLower(run.Actor)]; ok && run.ActorID == 0 {
			run.ActorID = u.ID
		}
		r.LastRun++
		run.ID, run.RepoID, run.Number = s.id(), repoID, r.LastRun
		jobs := make([]ci.JobPlan, len(run.Plan.Jobs))
		for i, j := range run.Plan.Jobs {
			j.ID = s.id()
			jobs[i] = j
		}
		run.Plan.Jobs = jobs
		p := &run
		s.d.Runs[p.ID] = p
		s.runsByRepo[repoID] = append(s.runsByRepo[repoID], p)
		for _, j := range jobs {
			s.runOfJob[j.ID] = p
		}
		t.put("repo", r.ID, r)
		t.put("run", p.ID, p)
		out = run
		return nil
	})
	return out, err
}

// Runs lists a repository's runs, newest first.
func (s *Store) Runs(repoID int64) []Run {
	s.mu.RLock()
	defer s.mu.RUnlock()
	l := s.runsByRepo[repoID]
	out := make([]Run, 0, len(l))
	for k := len(l) - 1; k >= 0; k-- {
		out = append(out, *l[k])
	}
	return out
}

// RunByID finds a run of a repository.
func (s *Store) RunByID(repoID, id int64) (Run, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r, ok := s.d.Runs[id]
	if !ok || r.RepoID != repoID {
		return Run{}, false
	}
	return *r, true
}

// RunOfJob finds the run a job belongs to.
func (s *Store) RunOfJob(repoID, jobID int64) (Run, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r, ok := s.runOfJob[jobID]
	if !ok || r.RepoID != repoID {
		return Run{}, false
	}
	return *r, true
}

// SetRunClock replaces a run's clock (cancel, hold, release).
func (s *Store) SetRunClock(id int64, fn func(c *ci.Clock)) (Run, error) {
	var out Run
	err := s.update(func(t *tx) error {
		r, ok := s.d.Runs[id]
		if !ok {
			return NotFound("run %d not found", id)
		}
		fn(&r.Clock)
		t.put("run", r.ID, r)
		out = *r
		return nil
	})
	return out, err
}
