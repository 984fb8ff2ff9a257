// Package store holds the reference server's state: users, tokens, keys,
// repositories and everything in them, in memory behind one lock, and
// optionally persisted under a data directory as a snapshot plus an
// append-only journal (see journal.go).
//
// Every mutation runs in update, which records the records it changed and
// appends them to the journal (fsynced) before the caller answers, so an
// acknowledged write survives a crash. The store knows nothing of HTTP
// beyond the status carried by its Error type; permission rules live with
// the handlers.
package store

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Error is a failure the client caused, or a write the disk refused, of
// a Kind; the HTTP status that says it is decided at the HTTP edge
// (package rest), not here.
type Error struct {
	Kind Kind
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

// Kind is what sort of failure an Error is.
type Kind int

// The kinds of Error. Internal is any other error: the server's fault.
const (
	Internal     Kind = iota
	InvalidInput      // the request is wrong
	Missing           // no such record (or one the caller may not see)
	Taken             // a duplicate, or a state that forbids the change
	Refused           // the caller may not do this
	Revoked           // the credential is no longer valid
	DiskFull          // the disk refused the write for lack of space
)

// NotFound, Conflict, Invalid and Forbidden build Errors.
func NotFound(format string, a ...any) error  { return errf(Missing, format, a...) }
func Conflict(format string, a ...any) error  { return errf(Taken, format, a...) }
func Invalid(format string, a ...any) error   { return errf(InvalidInput, format, a...) }
func Forbidden(format string, a ...any) error { return errf(Refused, format, a...) }

func errf(kind Kind, format string, a ...any) error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, a...)}
}

// KindOf returns the Kind of err: the Error's own, or Internal.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return Internal
}

// data is everything the store persists: one map per record kind, keyed by
// the record's ID. IDs come from one counter shared by all kinds.
type data struct {
	Users    map[int64]*User         `json:"users"`
	Tokens   map[int64]*Token        `json:"tokens"`
	Keys     map[int64]*SSHKey       `json:"keys"`
	Invites  map[int64]*Invite       `json:"invites"`
	Repos    map[int64]*Repo         `json:"repos"`
	Collabs  map[int64]*Collaborator `json:"collaborators"`
	Issues   map[int64]*Issue        `json:"issues"`
	Comments map[int64]*Comment      `json:"comments"`
	Pulls    map[int64]*Pull         `json:"pulls"`
	Releases map[int64]*Release      `json:"releases"`
	Runs     map[int64]*Run          `json:"runs"`
}

func newData() *data {
	return &data{
		Users: map[int64]*User{}, Tokens: map[int64]*Token{}, Keys: map[int64]*SSHKey{},
		Invites: map[int64]*Invite{}, Repos: map[int64]*Repo{}, Collabs: map[int64]*Collaborator{},
		Issues: map[int64]*Issue{}, Comments: map[int64]*Comment{}, Pulls: map[int64]*Pull{},
		Releases: map[int64]*Release{}, Runs: map[int64]*Run{},
	}
}

// Store is the server's state. All methods are safe for concurrent use.
type Store struct {
	mu      sync.RWMutex
	d       *data
	nextID  int64
	now     func() time.Time
	journal *journal // nil in memory
	dropped string   // what Open left out of the journal

	// Indexes rebuilt from d on load and kept current by the mutators.
	userByLogin  map[string]*User     // lower-case login
	tokenByHash  map[string]*Token    // hex SHA-256 of the token
	repoByName   map[string]*Repo     // lower-case owner/name
	issuesByRepo map[int64][]*Issue   // by number, ascending
	pullsByRepo  map[int64][]*Pull    // by number, ascending
	commentsOf   map[int64][]*Comment // by issue ID, oldest first
	collabsOf    map[int64][]*Collaborator
	runsByRepo   map[int64][]*Run // oldest first
	runOfJob     map[int64]*Run
}

// Open returns a store kept in dir, loading what an earlier run left there;
// dir "" keeps everything in memory. now is the clock (nil: time.Now).
func Open(dir string, now func() time.Time) (*Store, error) {
	if now == nil {
		now = time.Now
	}
	s := &Store{d: newData(), now: now}
	if dir != "" {
		j, d, dropped, err := openJournal(dir)
		if err != nil {
			return nil, err
		}
		s.journal, s.d, s.dropped = j, d, dropped
	}
	s.reindex()
	return s, nil
}

// Dropped says what Open left out of the journal (a torn last line), or
// is "": the server logs it.
func (s *Store) Dropped() string { return s.dropped }

// Close flushes and closes the journal.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.journal == nil {
		return nil
	}
	err := s.journal.close()
	s.journal = nil
	return err
}

// Now is the store's clock, truncated to seconds as the API shows times.
func (s *Store) Now() time.Time { return s.now().UTC().Truncate(time.Second) }

// reindex rebuilds every index and the ID counter from d.
func (s *Store) reindex() {
	d := s.d
	s.userByLogin = map[string]*User{}
	s.tokenByHash = map[string]*Token{}
	s.repoByName = map[string]*Repo{}
	s.issuesByRepo = map[int64][]*Issue{}
	s.pullsByRepo = map[int64][]*Pull{}
	s.commentsOf = map[int64][]*Comment{}
	s.collabsOf = map[int64][]*Collaborator{}
	s.runsByRepo = map[int64][]*Run{}
	s.runOfJob = map[int64]*Run{}
	max := int64(0)
	see := func(id int64) {
		if id > max {
			max = id
		}
	}
	for id, u := range d.Users {
		see(id)
		s.userByLogin[strings.ToLower(u.Login)] = u
	}
	for id, t := range d.Tokens {
		see(id)
		s.tokenByHash[t.Hash] = t
	}
	for id := range d.Keys {
		see(id)
	}
	for id := range d.Invites {
		see(id)
	}
	for id, r := range d.Repos {
		see(id)
		s.repoByName[repoKey(r.Owner, r.Name)] = r
	}
	for id, c := range d.Collabs {
		see(id)
		s.collabsOf[c.RepoID] = append(s.collabsOf[c.RepoID], c)
	}
	for id, i := range d.Issues {
		see(id)
		s.issuesByRepo[i.RepoID] = append(s.issuesByRepo[i.RepoID], i)
	}
	for id, c := range d.Comments {
		see(id)
		s.commentsOf[c.IssueID] = append(s.commentsOf[c.IssueID], c)
	}
	for id, p := range d.Pulls {
		see(id)
		s.pullsByRepo[p.RepoID] = append(s.pullsByRepo[p.RepoID], p)
	}
	for id := range d.Releases {
		see(id)
	}
	for id, r := range d.Runs {
		see(id)
		s.runsByRepo[r.RepoID] = append(s.runsByRepo[r.RepoID], r)
		for _, j := range r.Plan.Jobs {
			see(j.ID)
			s.runOfJob[j.ID] = r
		}
	}
	for _, l := range s.issuesByRepo {
		sort.Slice(l, func(a, b int) bool { return l[a].Number < l[b].Number })
	}
	for _, l := range s.pullsByRepo {
		sort.Slice(l, func(a, b int) bool { return l[a].Number < l[b].Number })
	}
	for _, l := range s.commentsOf {
		sort.Slice(l, func(a, b int) bool { return l[a].ID < l[b].ID })
	}
	for _, l := range s.collabsOf {
		sort.Slice(l, func(a, b int) bool { return l[a].ID < l[b].ID })
	}
	for _, l := range s.runsByRepo {
		sort.Slice(l, func(a, b int) bool { return l[a].ID < l[b].ID })
	}
	s.nextID = max + 1
}

func repoKey(owner, name string) string { return strings.ToLower(owner + "/" + name) }

// id hands out the next record ID. Callers hold the write lock.
func (s *Store) id() int64 {
	id := s.nextID
	s.nextID++
	return id
}

// tx collects the records one update changed, for the journal.
type tx struct {
	changes []change
}

func (t *tx) put(kind string, id int64, v any) {
	t.changes = append(t.changes, change{T: kind, ID: id, v: v})
}

func (t *tx) del(kind string, id int64) {
	t.changes = append(t.changes, change{T: kind, ID: id, Del: true})
}

// update runs fn under the write lock and journals what it changed. fn
// must check everything that can fail before it changes anything, so an
// error leaves the state as it was. The change becomes visible (the lock
// is released) only once it is durable: when the journal cannot be
// written, memory is reloaded from the disk, which still holds the state
// before fn, and the error is a StorageError.
func (s *Store) update(fn func(t *tx) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var t tx
	if err := fn(&t); err != nil {
		return err
	}
	if s.journal == nil || len(t.changes) == 0 {
		return nil
	}
	err := s.journal.append(t.changes, s.d)
	if err == nil {
		return nil
	}
	if d, _, lerr := load(s.journal.dir); lerr == nil {
		s.d = d
		s.reindex()
	} else {
		s.journal.broken = fmt.Errorf("the state could not be reloaded after a failed write (%w); restart the server", lerr)
	}
	return StorageError(err)
}

// StorageError is the answer to a write the disk refused: DiskFull for a
// full disk, else Internal, saying nothing was changed and naming the
// cause but not the file (no answer carries a filesystem path).
func StorageError(err error) error {
	kind := Internal
	if IsDiskFull(err) {
		kind = DiskFull
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &Error{Kind: kind, Msg: "the server could not save the change (" + err.Error() + "); nothing was changed, retry later"}
}

// IsDiskFull reports whether err is a full disk or an exhausted quota.
func IsDiskFull(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}

// SetWriteFault makes every later journal write, sync and snapshot fail
// whenever fault returns an error (as a full disk would; a failed write
// first writes half its bytes), and none when fault is nil: for tests of
// what a failing disk does. It does nothing to an in-memory store.
func (s *Store) SetWriteFault(fault func(op string) error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.journal != nil {
		s.journal.setFault(fault)
	}
}
