package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"time"
)

// state is what the registry knows beside pkg/registry's own maps: which
// manifests and tags each repository holds (for listings, deletes and
// restarts), which blobs each repository may read (blob storage is shared
// by digest, so without these links anyone who knew a digest could read
// another user's layer), and with whom each repository is shared.
//
// Under a data directory it is saved to state.json after every change and
// manifests are kept as files, so a restarted server serves the same
// images; in memory it is lost with the process.
type state struct {
	mu     sync.RWMutex
	Repos  map[string]*repoState      `json:"repositories"`
	Shares map[string]map[string]bool `json:"shares"`
	dir    string
	disk   *disk
	// saved is state.json as last written: a change whose save fails is
	// undone from it, so memory never shows what the disk does not hold.
	saved []byte
}

type repoState struct {
	Manifests map[string]manifestInfo `json:"manifests"` // by digest
	Tags      map[string]tagInfo      `json:"tags"`
	Blobs     map[string]bool         `json:"blobs"`
}

type manifestInfo struct {
	MediaType string    `json:"media_type"`
	Size      int64     `json:"size"`
	PushedAt  time.Time `json:"pushed_at"`
	// For the referrers API, of manifests with a subject only.
	Subject      string            `json:"subject,omitempty"`
	ArtifactType string            `json:"artifact_type,omitempty"`
	Annotations  map[string]string `json:"annotations,omitempty"`
}

type tagInfo struct {
	Digest    string    `json:"digest"`
	UpdatedAt time.Time `json:"updated_at"`
}

func newState() *state {
	return &state{Repos: map[string]*repoState{}, Shares: map[string]map[string]bool{}}
}

// loadState reads state.json from dir (empty state when it does not exist).
func loadState(dir string, d *disk) (*state, error) {
	s := newState()
	s.dir, s.disk = dir, d
	if dir == "" {
		return s, nil
	}
	data, err := os.ReadFile(filepath.Join(dir, "state.json"))
	if errors.Is(err, os.ErrNotExist) {
		s.saved, err = json.Marshal(s)
		return s, err
	}
	if err != nil {
		return nil, err
	}
	if err := s.decode(data); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "state.json"), err)
	}
	s.saved = data
	return s, nil
}

// decode replaces the index, blob links and shares with data's.
func (s *state) decode(data []byte) error {
	var loaded struct {
		Repos  map[string]*repoState      `json:"repositories"`
		Shares map[string]map[string]bool `json:"shares"`
	}
	if err := json.Unmarshal(data, &loaded); err != nil {
		return err
	}
	s.Repos, s.Shares = loaded.Repos, loaded.Shares
	if s.Repos == nil {
		s.Repos = map[string]*repoState{}
	}
	if s.Shares == nil {
		s.Shares = map[string]map[string]bool{}
	}
	for _, rs := range s.Repos {
		rs.init()
	}
	return nil
}

func (rs *repoState) init() {
	if rs.Manifests == nil {
		rs.Manifests = map[string]manifestInfo{}
	}
	if rs.Tags == nil {
		rs.Tags = map[string]tagInfo{}
	}
	if rs.Blobs == nil {
		rs.Blobs = map[string]bool{}
	}
}

// saveLocked makes a change the caller (holding the write lock) made in
// memory durable by writing state.json. When the write fails the change is
// undone, so what the registry shows is always what a restart would load:
// a write is durable, then visible, or neither.
func (s *state) saveLocked() error {
	if s.dir == "" {
		return nil
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err == nil {
		err = s.disk.writeAtomic(filepath.Join(s.dir, "state.json"), data, 0o600)
	}
	if err != nil {
		if derr := s.decode(s.saved); derr != nil {
			panic("registry: the last saved state does not decode: " + derr.Error())
		}
		return err
	}
	s.saved = data
	return nil
}

func (s *state) repoLocked(name string) *repoState {
	rs := s.Repos[name]
	if rs == nil {
		rs = &repoState{}
		rs.init()
		s.Repos[name] = rs
	}
	return rs
}

// empty reports whether a repository holds no manifest: it then does not
// exist for listings.
func (rs *repoState) empty() bool { return rs == nil || len(rs.Manifests) == 0 && len(rs.Tags) == 0 }

// linkBlob lets repo read the blob.
func (s *state) linkBlob(repo, digest string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	rs := s.repoLocked(repo)
	if rs.Blobs[digest] {
		return nil
	}
	rs.Blobs[digest] = true
	return s.saveLocked()
}

// unlinkBlob takes the blob away from repo; other repositories keep it.
func (s *state) unlinkBlob(repo, digest string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rs := s.Repos[repo]
	if rs == nil || !rs.Blobs[digest] {
		return false, nil
	}
	delete(rs.Blobs, digest)
	return true, s.saveLocked()
}

func (s *state) hasBlob(repo, digest string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	rs := s.Repos[repo]
	return rs != nil && rs.Blobs[digest]
}

// reposWithBlob lists the repositories that may read the blob, for
// cross-repository mounts.
func (s *state) reposWithBlob(digest string) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []string
	for name, rs := range s.Repos {
		if rs.Blobs[digest] {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// putManifest records a manifest and points tags at it.
func (s *state) putManifest(repo, digest string, info manifestInfo, tags []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	rs := s.repoLocked(repo)
	if old, ok := rs.Manifests[digest]; ok {
		info.PushedAt = old.PushedAt
	}
	rs.Manifests[digest] = info
	for _, t := range tags {
		rs.Tags[t] = tagInfo{Digest: digest, UpdatedAt: info.PushedAt}
	}
	return s.saveLocked()
}

// resolve finds a manifest by tag or digest.
func (s *state) resolve(repo, ref string) (digest string, info manifestInfo, ok bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	rs := s.Repos[repo]
	if rs == nil {
		return "", info, false
	}
	digest = ref
	if !looksLikeDigest(ref) {
		ti, found := rs.Tags[ref]
		if !found {
			return "", info, false
		}
		digest = ti.Digest
	}
	info, ok = rs.Manifests[digest]
	return digest, info, ok
}

// deleteManifest forgets a digest and every tag pointing at it; found is
// false when the repository does not hold it.
func (s *state) deleteManifest(repo, digest string) (found bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rs := s.Repos[repo]
	if rs == nil {
		return false, nil
	}
	if _, found = rs.Manifests[digest]; !found {
		return false, nil
	}
	delete(rs.Manifests, digest)
	for t, ti := range rs.Tags {
		if ti.Digest == digest {
			delete(rs.Tags, t)
		}
	}
	return true, s.saveLocked()
}

// deleteTag forgets one tag; the manifest stays, reachable by digest.
func (s *state) deleteTag(repo, tag string) (found bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rs := s.Repos[repo]
	if rs == nil {
		return false, nil
	}
	if _, found = rs.Tags[tag]; !found {
		return false, nil
	}
	delete(rs.Tags, tag)
	return true, s.saveLocked()
}

// referrers lists the manifests of repo whose subject is digest, of the
// given artifact type unless it is empty, sorted by digest.
func (s *state) referrers(repo, subject, artifactType string) []descriptor {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := []descriptor{}
	if rs := s.Repos[repo]; rs != nil {
		for d, mi := range rs.Manifests {
			if mi.Subject != subject || artifactType != "" && mi.ArtifactType != artifactType {
				continue
			}
			out = append(out, descriptor{MediaType: mi.MediaType, Digest: d, Size: mi.Size, ArtifactType: mi.ArtifactType, Annotations: mi.Annotations})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Digest < out[j].Digest })
	return out
}

// refersTo reports whether any repository still holds the digest, as a
// blob (kind "blobs") or a manifest.
func (s *state) refersTo(kind, digest string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, rs := range s.Repos {
		if kind == "blobs" && rs.Blobs[digest] {
			return true
		}
		if _, ok := rs.Manifests[digest]; kind == "manifests" && ok {
			return true
		}
	}
	return false
}

// tagEntry is one tag of a repository, for listings.
type tagEntry struct {
	Name      string    `json:"name"`
	Digest    string    `json:"digest"`
	MediaType string    `json:"media_type"`
	Size      int64     `json:"size"`
	UpdatedAt time.Time `json:"updated_at"`
}

// tags lists a repository's tags sorted by name; ok is false when the
// repository holds nothing.
func (s *state) tags(repo string) (list []tagEntry, ok bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	rs := s.Repos[repo]
	if rs.empty() {
		return nil, false
	}
	list = make([]tagEntry, 0, len(rs.Tags))
	for t, ti := range rs.Tags {
		mi := rs.Manifests[ti.Digest]
		list = append(list, tagEntry{Name: t, Digest: ti.Digest, MediaType: mi.MediaType, Size: mi.Size, UpdatedAt: ti.UpdatedAt})
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	return list, true
}

// repoEntry is one repository, for the admin catalog.
type repoEntry struct {
	Name      string    `json:"name"`
	Namespace string    `json:"namespace"`
	Tags      []string  `json:"tags"`
	Manifests int       `json:"manifests"`
	UpdatedAt time.Time `json:"updated_at"`
}

// repositories lists the repositories holding at least one manifest,
// sorted, keeping those keep accepts.
func (s *state) repositories(keep func(string) bool) []repoEntry {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := []repoEntry{}
	for name, rs := range s.Repos {
		if rs.empty() || !keep(name) {
			continue
		}
		e := repoEntry{Name: name, Namespace: owner(name), Tags: []string{}, Manifests: len(rs.Manifests)}
		for t, ti := range rs.Tags {
			e.Tags = append(e.Tags, t)
			if ti.UpdatedAt.After(e.UpdatedAt) {
				e.UpdatedAt = ti.UpdatedAt
			}
		}
		for _, mi := range rs.Manifests {
			if mi.PushedAt.After(e.UpdatedAt) {
				e.UpdatedAt = mi.PushedAt
			}
		}
		sort.Strings(e.Tags)
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// share lets user pull repo.
func (s *state) share(repo, user string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.Shares[repo] == nil {
		s.Shares[repo] = map[string]bool{}
	}
	s.Shares[repo][namespace(user)] = true
	return s.saveLocked()
}

// unshare takes the right to pull repo away from user.
func (s *state) unshare(repo, user string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.Shares[repo], namespace(user))
	if len(s.Shares[repo]) == 0 {
		delete(s.Shares, repo)
	}
	return s.saveLocked()
}

func (s *state) sharedWith(repo, user string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return user != "" && s.Shares[repo][namespace(user)]
}

// shareList returns the users repo is shared with, sorted.
func (s *state) shareList(repo string) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := []string{}
	for u := range s.Shares[repo] {
		out = append(out, u)
	}
	slices.Sort(out)
	return out
}

// deleteNamespace forgets the repositories under ns/ and every share to
// or from ns, returning the digests those repositories held.
func (s *state) deleteNamespace(ns string) (blobs, manifests []string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for name, rs := range s.Repos {
		if owner(name) != ns {
			continue
		}
		for d := range rs.Blobs {
			blobs = append(blobs, d)
		}
		for d := range rs.Manifests {
			manifests = append(manifests, d)
		}
		delete(s.Repos, name)
	}
	for repo, users := range s.Shares {
		delete(users, ns)
		if owner(repo) == ns || len(users) == 0 {
			delete(s.Shares, repo)
		}
	}
	return blobs, manifests, s.saveLocked()
}
