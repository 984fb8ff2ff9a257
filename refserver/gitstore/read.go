package gitstore

import (
	"errors"
	"io"
	"path"
	"sort"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Entry is a directory entry.
type Entry struct {
	Name, Path, Type, SHA string
	Size                  int64
}

// File is a file with its content.
type File struct {
	Entry
	Content []byte
}

// resolve finds the commit ref names: a branch, a tag, or a commit hash
// (full or abbreviated to at least 4 digits). ref "" is HEAD.
func (r *Repo) resolve(ref string) (*object.Commit, error) {
	if ref == "" {
		head, err := r.repo.Head()
		if err != nil {
			if errors.Is(err, plumbing.ErrReferenceNotFound) {
				return nil, ErrEmpty
			}
			return nil, err
		}
		return r.repo.CommitObject(head.Hash())
	}
	for _, name := range []plumbing.ReferenceName{plumbing.NewBranchReferenceName(ref), plumbing.NewTagReferenceName(ref)} {
		if rf, err := r.repo.Reference(name, true); err == nil {
			if c, err := r.repo.CommitObject(rf.Hash()); err == nil {
				return c, nil
			}
			if tag, err := r.repo.TagObject(rf.Hash()); err == nil {
				return tag.Commit()
			}
		}
	}
	if len(ref) >= 4 && len(ref) <= 40 && strings.Trim(strings.ToLower(ref), "0123456789abcdef") == "" {
		if h, err := r.repo.ResolveRevision(plumbing.Revision(ref)); err == nil {
			return r.repo.CommitObject(*h)
		}
	}
	return nil, ErrNotFound
}

// Empty reports whether the repository has no commit on HEAD.
func (r *Repo) Empty() bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	_, err := r.resolve("")
	return errors.Is(err, ErrEmpty)
}

// Head returns the hash of branch's tip ("" when it does not exist).
func (r *Repo) Head(branch string) string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	rf, err := r.repo.Reference(plumbing.NewBranchReferenceName(branch), true)
	if err != nil {
		return ""
	}
	return rf.Hash().String()
}

// Contents reads p at ref: a directory's entries, or a file.
func (r *Repo) Contents(ref, p string) ([]Entry, *File, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	c, err := r.resolve(ref)
	if err != nil {
		return nil, nil, err
	}
	tree, err := c.Tree()
	if err != nil {
		return nil, nil, err
	}
	p = strings.Trim(path.Clean("/"+p), "/")
	if p != "" {
		e, err := tree.FindEntry(p)
		if err != nil {
			return nil, nil, ErrNotFound
		}
		if e.Mode != filemode.Dir {
			f, err := r.file(p, e)
			return nil, f, err
		}
		if tree, err = tree.Tree(p); err != nil {
			return nil, nil, err
		}
	}
	entries := make([]Entry, 0, len(tree.Entries))
	for _, e := range tree.Entries {
		en := Entry{Name: e.Name, Path: path.Join(p, e.Name), SHA: e.Hash.String(), Type: typeOf(e.Mode)}
		if en.Type == "file" || en.Type == "symlink" {
			if sz, err := r.repo.Storer.EncodedObjectSize(e.Hash); err == nil {
				en.Size = sz
			}
		}
		entries = append(entries, en)
	}
	return entries, nil, nil
}

func typeOf(m filemode.FileMode) string {
	switch m {
	case filemode.Dir:
		return "dir"
	case filemode.Symlink:
		return "symlink"
	case filemode.Submodule:
		return "submodule"
	}
	return "file"
}

func (r *Repo) file(p string, e *object.TreeEntry) (*File, error) {
	if e.Mode == filemode.Submodule {
		return &File{Entry: Entry{Name: e.Name, Path: p, Type: "submodule", SHA: e.Hash.String()}}, nil
	}
	b, err := r.repo.BlobObject(e.Hash)
	if err != nil {
		return nil, err
	}
	rd, err := b.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	data, err := io.ReadAll(rd)
	if err != nil {
		return nil, err
	}
	return &File{Entry: Entry{Name: e.Name, Path: p, Type: typeOf(e.Mode), SHA: e.Hash.String(), Size: b.Size}, Content: data}, nil
}

// CommitInfo is one commit of the history.
type CommitInfo struct {
	SHA               string
	Message           string
	Author, Committer object.Signature
	Parents           []string
}

// Log lists up to limit commits reachable from ref, newest first; a path
// keeps only commits that changed it.
func (r *Repo) Log(ref, p string, limit int) ([]CommitInfo, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	c, err := r.resolve(ref)
	if err != nil {
		return nil, err
	}
	opts := &git.LogOptions{From: c.Hash, Order: git.LogOrderCommitterTime}
	if p = strings.Trim(path.Clean("/"+p), "/"); p != "" {
		opts.PathFilter = func(f string) bool { return f == p || strings.HasPrefix(f, p+"/") }
	}
	iter, err := r.repo.Log(opts)
	if err != nil {
		return nil, err
	}
	defer iter.Close()
	var out []CommitInfo
	for len(out) < limit {
		c, err := iter.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		ci := CommitInfo{SHA: c.Hash.String(), Message: c.Message, Author: c.Author, Committer: c.Committer}
		for _, ph := range c.ParentHashes {
			ci.Parents = append(ci.Parents, ph.String())
		}
		out = append(out, ci)
	}
	return out, nil
}

// Branches lists the branches as name and tip hash, by name.
func (r *Repo) Branches() [][2]string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	iter, err := r.repo.Branches()
	if err != nil {
		return nil
	}
	var out [][2]string
	iter.ForEach(func(ref *plumbing.Reference) error {
		out = append(out, [2]string{ref.Name().Short(), ref.Hash().String()})
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}
