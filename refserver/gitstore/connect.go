package gitstore

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// maxConnectivityWalk bounds the objects one ref's connectivity check
// visits (commits, trees, blobs and tags the push brings): past it the
// ref is refused ("push its history in parts"), as the walk runs under
// the repository's write lock.
const maxConnectivityWalk = 1 << 20

// reached is what a connectivity walk goes to next: an object, and what
// its referrer says it is (AnyObject: it does not say). A blob's
// presence is enough; the others are read, and what they name walked.
type reached struct {
	hash plumbing.Hash
	kind plumbing.ObjectType
}

// checkConnected reports whether every object tip reaches is in the
// repository, as git's receive-pack checks before it moves a ref
// (rev-list --objects NEW --not --all): the walk stops at commits known
// to be connected (knownCommits), visiting at most limit objects. The
// commits it checked are known from then on: objects are never removed.
// Callers hold the write lock.
func (r *Repo) checkConnected(tip plumbing.Hash, limit int) error {
	known := r.knownCommits()
	seen := map[plumbing.Hash]bool{}
	var commits []plumbing.Hash
	next := []reached{{hash: tip, kind: plumbing.AnyObject}}
	for len(next) > 0 {
		o := next[len(next)-1]
		next = next[:len(next)-1]
		if seen[o.hash] || known[o.hash] {
			continue
		}
		if seen[o.hash] = true; len(seen) > limit {
			return fmt.Errorf("the push brings more than %d objects to check under %s: push its history in parts", limit, tip)
		}
		if o.kind == plumbing.BlobObject {
			if r.st.HasEncodedObject(o.hash) != nil {
				return missingObject(tip, o)
			}
			continue
		}
		names, isCommit, err := r.names(tip, o)
		if err != nil {
			return err
		}
		if isCommit {
			commits = append(commits, o.hash)
		}
		next = append(next, names...)
	}
	for _, h := range commits {
		known[h] = true
	}
	return nil
}

// names reads object h, which tip reaches, and returns the objects it
// names: a commit's tree and parents, a tree's entries (not submodules:
// their commits live in another repository), a tag's target.
func (r *Repo) names(tip plumbing.Hash, o reached) (out []reached, isCommit bool, err error) {
	obj, err := r.st.EncodedObject(plumbing.AnyObject, o.hash)
	if err != nil {
		return nil, false, missingObject(tip, o)
	}
	switch obj.Type() {
	case plumbing.CommitObject:
		c, err := object.DecodeCommit(r.st, obj)
		if err != nil {
			return nil, false, err
		}
		out = append(out, reached{c.TreeHash, plumbing.TreeObject})
		for _, p := range c.ParentHashes {
			out = append(out, reached{p, plumbing.CommitObject})
		}
		return out, true, nil
	case plumbing.TreeObject:
		t, err := object.DecodeTree(r.st, obj)
		if err != nil {
			return nil, false, err
		}
		for _, e := range t.Entries {
			switch e.Mode {
			case filemode.Submodule:
			case filemode.Dir:
				out = append(out, reached{e.Hash, plumbing.TreeObject})
			default:
				out = append(out, reached{e.Hash, plumbing.BlobObject})
			}
		}
	case plumbing.TagObject:
		t, err := object.DecodeTag(r.st, obj)
		if err != nil {
			return nil, false, err
		}
		out = append(out, reached{t.Target, t.TargetType})
	}
	return out, false, nil
}

func missingObject(tip plumbing.Hash, o reached) error {
	kind := "object"
	if o.kind != plumbing.AnyObject {
		kind = o.kind.String()
	}
	return fmt.Errorf("missing necessary objects: %s reaches %s %s, which is in neither the pack nor the repository", tip, kind, o.hash)
}

// knownCommits is the set of commits known to be connected: at first
// those the repository's refs reach (their objects were checked when
// they were pushed, or written by the server itself), then also those
// checkConnected checked. Built on the first push of the server's run,
// walking commits only. Callers hold the write lock.
func (r *Repo) knownCommits() map[plumbing.Hash]bool {
	if r.known != nil {
		return r.known
	}
	r.known = map[plumbing.Hash]bool{}
	var next []plumbing.Hash
	if refs, err := r.st.IterReferences(); err == nil {
		refs.ForEach(func(ref *plumbing.Reference) error {
			if ref.Type() == plumbing.HashReference {
				next = append(next, r.peel(ref.Hash()))
			}
			return nil
		})
	}
	for len(next) > 0 {
		h := next[len(next)-1]
		next = next[:len(next)-1]
		if r.known[h] {
			continue
		}
		c, err := object.GetCommit(r.st, h)
		if err != nil {
			continue // not a commit (a tag of a tree or blob), or missing
		}
		r.known[h] = true
		next = append(next, c.ParentHashes...)
	}
	return r.known
}

// peel follows annotated tags to what they tag, at most 8 deep.
func (r *Repo) peel(h plumbing.Hash) plumbing.Hash {
	for i := 0; i < 8; i++ {
		t, err := object.GetTag(r.st, h)
		if err != nil {
			return h
		}
		h = t.Target
	}
	return h
}
