package gitstore

import (
	"bytes"
	"errors"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// Entry is a directory entry.
type Entry struct {
	Name, Path, Type, SHA string
	Size                  int64
}

// File is a file with its content, which Contents leaves out (nil) past
// its inline limit.
type File struct {
	Entry
	Content []byte
}

// resolve finds the commit ref names: a branch, a tag, or a commit hash
// (full or abbreviated to at least 4 digits). ref "" is HEAD.
func (r *Repo) resolve(ref string) (*object.Commit, error) {
	if ref == "" {
		head, err := storer.ResolveReference(r.st, plumbing.HEAD)
		if err != nil {
			if errors.Is(err, plumbing.ErrReferenceNotFound) {
				return nil, ErrEmpty
			}
			return nil, err
		}
		return object.GetCommit(r.st, head.Hash())
	}
	for _, name := range []plumbing.ReferenceName{plumbing.NewBranchReferenceName(ref), plumbing.NewTagReferenceName(ref)} {
		if rf, err := storer.ResolveReference(r.st, name); err == nil {
			if c, err := object.GetCommit(r.st, rf.Hash()); err == nil {
				return c, nil
			}
			if tag, err := object.GetTag(r.st, rf.Hash()); err == nil {
				return tag.Commit()
			}
		}
	}
	ref = strings.ToLower(ref)
	if len(ref) < 4 || len(ref) > 40 || strings.Trim(ref, "0123456789abcdef") != "" {
		return nil, ErrNotFound
	}
	if len(ref) == 40 {
		c, err := object.GetCommit(r.st, plumbing.NewHash(ref))
		if err != nil {
			return nil, ErrNotFound
		}
		return c, nil
	}
	// An abbreviated hash: the one commit it starts.
	iter, err := r.st.IterEncodedObjects(plumbing.CommitObject)
	if err != nil {
		return nil, err
	}
	defer iter.Close()
	var found *plumbing.Hash
	err = iter.ForEach(func(o plumbing.EncodedObject) error {
		if h := o.Hash(); strings.HasPrefix(h.String(), ref) {
			if found != nil {
				return ErrNotFound // ambiguous
			}
			found = &h
		}
		return nil
	})
	if err != nil || found == nil {
		return nil, ErrNotFound
	}
	return object.GetCommit(r.st, *found)
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
	rf, err := storer.ResolveReference(r.st, plumbing.NewBranchReferenceName(branch))
	if err != nil {
		return ""
	}
	return rf.Hash().String()
}

// Contents reads p at ref: a directory's entries, or a file, with its
// content when it is at most maxInline bytes (the size is known without
// reading the content).
func (r *Repo) Contents(ref, p string, maxInline int64) ([]Entry, *File, error) {
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
			f, err := r.file(p, e, maxInline)
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
			if sz, err := r.st.EncodedObjectSize(e.Hash); err == nil {
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

func (r *Repo) file(p string, e *object.TreeEntry, maxInline int64) (*File, error) {
	f := &File{Entry: Entry{Name: e.Name, Path: p, Type: typeOf(e.Mode), SHA: e.Hash.String()}}
	if e.Mode == filemode.Submodule {
		return f, nil
	}
	size, err := r.st.EncodedObjectSize(e.Hash)
	if err != nil {
		return nil, err
	}
	f.Size = size
	if size > maxInline {
		return f, nil
	}
	var buf bytes.Buffer
	if err := r.copyBlob(&buf, e.Hash); err != nil {
		return nil, err
	}
	f.Content = buf.Bytes()
	return f, nil
}

// copyBlob copies a blob's content to w; a large blob streams from its
// pack (see LargeObjectThreshold in gitstore.go).
func (r *Repo) copyBlob(w io.Writer, h plumbing.Hash) error {
	b, err := object.GetBlob(r.st, h)
	if err != nil {
		return err
	}
	rd, err := b.Reader()
	if err != nil {
		return err
	}
	defer rd.Close()
	_, err = io.Copy(w, rd)
	return err
}

// ReadFile copies the content of file p at ref to out, under the read
// lock: give it a Spool and send that once it returns, so that no lock is
// held while the client reads. A directory is ErrNotFound.
func (r *Repo) ReadFile(ref, p string, out io.Writer) (Entry, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	c, err := r.resolve(ref)
	if err != nil {
		return Entry{}, err
	}
	tree, err := c.Tree()
	if err != nil {
		return Entry{}, err
	}
	p = strings.Trim(path.Clean("/"+p), "/")
	e, err := tree.FindEntry(p)
	if err != nil || p == "" || e.Mode == filemode.Dir || e.Mode == filemode.Submodule {
		return Entry{}, ErrNotFound
	}
	en := Entry{Name: e.Name, Path: p, Type: typeOf(e.Mode), SHA: e.Hash.String()}
	if err := r.copyBlob(out, e.Hash); err != nil {
		return Entry{}, err
	}
	return en, nil
}

// CommitInfo is one commit of the history.
type CommitInfo struct {
	SHA               string
	Message           string
	Author, Committer object.Signature
	Parents           []string
}

// Log lists up to limit commits reachable from ref, newest first by
// committer time; a path keeps only commits that changed it (compared
// with their first parent).
func (r *Repo) Log(ref, p string, limit int) ([]CommitInfo, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	c, err := r.resolve(ref)
	if err != nil {
		return nil, err
	}
	p = strings.Trim(path.Clean("/"+p), "/")
	iter := object.NewCommitIterCTime(c, nil, nil)
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
		if p != "" && !changed(c, p) {
			continue
		}
		ci := CommitInfo{SHA: c.Hash.String(), Message: c.Message, Author: c.Author, Committer: c.Committer}
		for _, ph := range c.ParentHashes {
			ci.Parents = append(ci.Parents, ph.String())
		}
		out = append(out, ci)
	}
	return out, nil
}

// changed reports whether commit c changed path p.
func changed(c *object.Commit, p string) bool {
	at := func(c *object.Commit) plumbing.Hash {
		t, err := c.Tree()
		if err != nil {
			return plumbing.ZeroHash
		}
		e, err := t.FindEntry(p)
		if err != nil {
			return plumbing.ZeroHash
		}
		return e.Hash
	}
	mine := at(c)
	parent, err := c.Parent(0)
	if err != nil {
		return mine != plumbing.ZeroHash
	}
	return at(parent) != mine
}

// Branches lists the branches as name and tip hash, by name.
func (r *Repo) Branches() [][2]string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	iter, err := r.st.IterReferences()
	if err != nil {
		return nil
	}
	var out [][2]string
	iter.ForEach(func(ref *plumbing.Reference) error {
		if ref.Name().IsBranch() && ref.Type() == plumbing.HashReference {
			out = append(out, [2]string{ref.Name().Short(), ref.Hash().String()})
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}
