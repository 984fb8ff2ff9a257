// Package gitstore keeps the reference server's git repositories with
// go-git: in memory, or as bare repositories on disk under a data
// directory. It makes commits without a worktree (seeding, auto_init),
// reads contents and history at any ref, hands out the storage to the
// smart HTTP transport, and plans the shallow fetches go-git's server
// cannot serve (shallow.go).
//
// It uses go-git's plumbing and storage packages only, not the root
// package: that one links every transport (ssh, http, their
// configuration parsers), whose init() would cost every forge command
// about two milliseconds.
package gitstore

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/memory"
)

// ErrNotFound is returned for a missing repository, ref or path.
var ErrNotFound = errors.New("not found")

// ErrEmpty is returned when a repository has no commits yet.
var ErrEmpty = errors.New("repository is empty")

// Store holds the repositories, keyed by the store's repository ID.
type Store struct {
	dir   string
	mu    sync.Mutex
	repos map[int64]*Repo
}

// Repo is one repository and the lock that serialises writers.
type Repo struct {
	mu  sync.RWMutex
	st  storage.Storer
	dir string
	// known holds the commits known to be connected (knownCommits),
	// under the write lock; nil until the first push.
	known map[plumbing.Hash]bool
}

// New returns a store under dir ("" keeps repositories in memory).
func New(dir string) *Store { return &Store{dir: dir, repos: map[int64]*Repo{}} }

func (s *Store) path(id int64) string {
	return filepath.Join(s.dir, strconv.FormatInt(id, 10)+".git")
}

// Init creates an empty bare repository whose HEAD names branch.
func (s *Store) Init(id int64, branch string) error {
	if err := CheckRefName(plumbing.NewBranchReferenceName(branch).String()); err != nil {
		return err
	}
	var st storage.Storer
	dir := ""
	if s.dir == "" {
		st = memory.NewStorage()
	} else {
		dir = s.path(id)
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
		fst := newDiskStorage(dir)
		if err := fst.Init(); err != nil {
			return err
		}
		// A bare repository, as git itself would write it.
		if err := os.WriteFile(filepath.Join(dir, "config"), []byte("[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n"), 0o600); err != nil {
			return err
		}
		st = fst
	}
	head := plumbing.NewSymbolicReference(plumbing.HEAD, plumbing.NewBranchReferenceName(branch))
	if err := st.SetReference(head); err != nil {
		return err
	}
	s.mu.Lock()
	s.repos[id] = &Repo{st: st, dir: dir}
	s.mu.Unlock()
	return nil
}

// Open returns repository id, opening it from disk on first use.
func (s *Store) Open(id int64) (*Repo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.repos[id]; ok {
		return r, nil
	}
	if s.dir == "" {
		return nil, ErrNotFound
	}
	dir := s.path(id)
	if _, err := os.Stat(dir); err != nil {
		return nil, ErrNotFound
	}
	removeTemporaries(dir)
	repo := &Repo{st: newDiskStorage(dir), dir: dir}
	s.repos[id] = repo
	return repo, nil
}

// removeTemporaries deletes what a write cut short by a crash left in a
// repository opened for the first time since the start (objects are
// written to objects/pack/tmp_obj_* and renamed into place; earlier
// versions wrote whole packs to tmp_pack_*): no writer of this process
// has begun, and the data directory's lock keeps other servers out.
func removeTemporaries(dir string) {
	left, _ := filepath.Glob(filepath.Join(dir, "objects", "pack", "tmp_*"))
	for _, f := range left {
		os.Remove(f)
	}
}

// largeObject is the size past which a blob read from a pack streams
// instead of being inflated into memory whole.
const largeObject = 1 << 20

func newDiskStorage(dir string) *filesystem.Storage {
	return filesystem.NewStorageWithOptions(osfs.New(dir), cache.NewObjectLRUDefault(),
		filesystem.Options{LargeObjectThreshold: largeObject})
}

// Remove deletes repository id.
func (s *Store) Remove(id int64) {
	s.mu.Lock()
	delete(s.repos, id)
	s.mu.Unlock()
	if s.dir != "" {
		os.RemoveAll(s.path(id))
	}
}

// Sync makes what was written to repository id durable (see sync_*.go).
func (r *Repo) Sync() error {
	if r.dir == "" {
		return nil
	}
	return syncTree(r.dir)
}

// Lock and Unlock serialise writers (pushes, commits); RLock readers.
func (r *Repo) Lock()    { r.mu.Lock() }
func (r *Repo) Unlock()  { r.mu.Unlock() }
func (r *Repo) RLock()   { r.mu.RLock() }
func (r *Repo) RUnlock() { r.mu.RUnlock() }

// Storer is the repository's go-git storage; callers hold the lock.
func (r *Repo) Storer() storage.Storer { return r.st }

// Signature names a commit's author.
type Signature struct {
	Name, Email string
	When        time.Time
}

// Commit records files (path -> content; nil content deletes the path) on
// top of branch's tip, or as a root commit when the branch does not exist
// yet, and moves the branch. It returns the new commit's hash.
func (r *Repo) Commit(branch string, files map[string][]byte, message string, author Signature) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ref := plumbing.NewBranchReferenceName(branch)
	var parents []plumbing.Hash
	root := newDir()
	if cur, err := storer.ResolveReference(r.st, ref); err == nil {
		parents = append(parents, cur.Hash())
		c, err := object.GetCommit(r.st, cur.Hash())
		if err != nil {
			return "", err
		}
		t, err := c.Tree()
		if err != nil {
			return "", err
		}
		if err := root.load(r.st, t); err != nil {
			return "", err
		}
	}
	for p, content := range files {
		if err := root.set(strings.Split(strings.Trim(p, "/"), "/"), content); err != nil {
			return "", err
		}
	}
	treeHash, err := root.write(r.st)
	if err != nil {
		return "", err
	}
	sig := object.Signature{Name: author.Name, Email: author.Email, When: author.When}
	c := &object.Commit{Author: sig, Committer: sig, Message: message, TreeHash: treeHash, ParentHashes: parents}
	obj := r.st.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		return "", err
	}
	h, err := r.st.SetEncodedObject(obj)
	if err != nil {
		return "", err
	}
	if err := r.setRef(plumbing.NewHashReference(ref, h)); err != nil {
		return "", err
	}
	return h.String(), r.Sync()
}

// dir is a tree being edited: subdirectories and files by name.
type dir struct {
	dirs  map[string]*dir
	files map[string]fileEntry
}

type fileEntry struct {
	mode filemode.FileMode
	hash plumbing.Hash
	data []byte // new content, nil for an unchanged blob
}

func newDir() *dir { return &dir{dirs: map[string]*dir{}, files: map[string]fileEntry{}} }

func (d *dir) load(st storage.Storer, t *object.Tree) error {
	for _, e := range t.Entries {
		if e.Mode == filemode.Dir {
			sub, err := object.GetTree(st, e.Hash)
			if err != nil {
				return err
			}
			sd := newDir()
			if err := sd.load(st, sub); err != nil {
				return err
			}
			d.dirs[e.Name] = sd
			continue
		}
		d.files[e.Name] = fileEntry{mode: e.Mode, hash: e.Hash}
	}
	return nil
}

func (d *dir) set(parts []string, content []byte) error {
	name := parts[0]
	if name == "" || name == "." || name == ".." || name == ".git" {
		return fmt.Errorf("invalid path element %q", name)
	}
	if len(parts) == 1 {
		if content == nil {
			delete(d.files, name)
			return nil
		}
		if _, isDir := d.dirs[name]; isDir {
			return fmt.Errorf("%s is a directory", name)
		}
		d.files[name] = fileEntry{mode: filemode.Regular, data: content}
		return nil
	}
	sub, ok := d.dirs[name]
	if !ok {
		if content == nil {
			return nil
		}
		if _, isFile := d.files[name]; isFile {
			return fmt.Errorf("%s is a file", name)
		}
		sub = newDir()
		d.dirs[name] = sub
	}
	if err := sub.set(parts[1:], content); err != nil {
		return err
	}
	if len(sub.dirs)+len(sub.files) == 0 {
		delete(d.dirs, name)
	}
	return nil
}

func (d *dir) write(st storage.Storer) (plumbing.Hash, error) {
	var entries []object.TreeEntry
	for name, sub := range d.dirs {
		h, err := sub.write(st)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		entries = append(entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h})
	}
	for name, f := range d.files {
		if f.data != nil {
			obj := st.NewEncodedObject()
			obj.SetType(plumbing.BlobObject)
			w, err := obj.Writer()
			if err != nil {
				return plumbing.ZeroHash, err
			}
			w.Write(f.data)
			w.Close()
			if f.hash, err = st.SetEncodedObject(obj); err != nil {
				return plumbing.ZeroHash, err
			}
		}
		entries = append(entries, object.TreeEntry{Name: name, Mode: f.mode, Hash: f.hash})
	}
	// Git orders tree entries by name, a directory's name as if it ended
	// in "/".
	key := func(e object.TreeEntry) string {
		if e.Mode == filemode.Dir {
			return e.Name + "/"
		}
		return e.Name
	}
	sort.Slice(entries, func(i, j int) bool { return key(entries[i]) < key(entries[j]) })
	t := &object.Tree{Entries: entries}
	obj := st.NewEncodedObject()
	if err := t.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return st.SetEncodedObject(obj)
}

// EnsureTag creates a lightweight tag at target (a branch, tag or hash)
// unless the tag exists.
func (r *Repo) EnsureTag(tag, target string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	name := plumbing.NewTagReferenceName(tag)
	if _, err := r.st.Reference(name); err == nil {
		return nil
	}
	c, err := r.resolve(target)
	if err != nil {
		return err
	}
	if err := r.setRef(plumbing.NewHashReference(name, c.Hash)); err != nil {
		return err
	}
	return r.Sync()
}

// Branch creates branch at the commit hash sha.
func (r *Repo) Branch(branch, sha string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.setRef(plumbing.NewHashReference(plumbing.NewBranchReferenceName(branch), plumbing.NewHash(sha))); err != nil {
		return err
	}
	return r.Sync()
}

// SetHead points HEAD at branch.
func (r *Repo) SetHead(branch string) error {
	if err := CheckRefName(plumbing.NewBranchReferenceName(branch).String()); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.st.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, plumbing.NewBranchReferenceName(branch))); err != nil {
		return err
	}
	return r.Sync()
}

// Message is the message of commit sha ("" when unknown).
func (r *Repo) Message(sha string) string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	c, err := object.GetCommit(r.st, plumbing.NewHash(sha))
	if err != nil {
		return ""
	}
	return c.Message
}
