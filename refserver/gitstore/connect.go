package gitstore

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// maxConnectivityWalk bounds the objects one ref's connectivity check
// visits (the commits, trees, blobs and tags the push brings): past it
// the ref is refused ("push its history in parts"), as the walk runs
// under the repository's write lock.
const maxConnectivityWalk = 1 << 20

// connectivity is one ref's connectivity check: the objects visited, and
// the new commits found, whose trees are checked after.
type connectivity struct {
	r       *Repo
	tip     plumbing.Hash
	limit   int
	known   map[plumbing.Hash]bool
	seen    map[plumbing.Hash]bool
	commits []*object.Commit
}

// checkConnected reports whether every object tip reaches is in the
// repository, as git's receive-pack checks before it moves a ref
// (rev-list --objects NEW --not --all). The walk goes through the
// commits down to those known to be connected (knownCommits), then,
// parents first, through each new commit's tree, leaving out every entry
// a parent's tree holds at the same path (a connected object, or one the
// parent's check has covered), visiting at most limit objects. The commits it
// checked are known from then on: objects are never removed. Callers
// hold the write lock.
func (r *Repo) checkConnected(tip plumbing.Hash, limit int) error {
	w := &connectivity{r: r, tip: tip, limit: limit, known: r.knownCommits(), seen: map[plumbing.Hash]bool{}}
	if err := w.object(tip, plumbing.AnyObject); err != nil {
		return err
	}
	// Parents first: a child's check leaves out what its parent's tree
	// holds, which must be checked by then.
	for _, c := range parentsFirst(w.commits) {
		var bases []entries
		for _, p := range c.ParentHashes {
			if pc, err := object.GetCommit(r.st, p); err == nil {
				bases = append(bases, w.entries(pc.TreeHash))
			}
		}
		if err := w.tree(c.TreeHash, bases); err != nil {
			return err
		}
	}
	for _, c := range w.commits {
		w.known[c.Hash] = true
	}
	return nil
}

// visit reports whether h is yet to be checked, counting it against the
// limit.
func (w *connectivity) visit(h plumbing.Hash) (bool, error) {
	if w.seen[h] || w.known[h] {
		return false, nil
	}
	if w.seen[h] = true; len(w.seen) > w.limit {
		return false, fmt.Errorf("the push brings more than %d objects to check under %s: push its history in parts", w.limit, w.tip)
	}
	return true, nil
}

// object checks h, which its referrer says is a kind (AnyObject: it
// does not say): a blob's presence, a tree, a tag and what it tags, or a
// commit and its history.
func (w *connectivity) object(h plumbing.Hash, kind plumbing.ObjectType) error {
	for {
		switch kind {
		case plumbing.TreeObject:
			return w.tree(h, nil)
		case plumbing.BlobObject:
			return w.blob(h)
		case plumbing.CommitObject:
			return w.history(h)
		}
		if w.seen[h] || w.known[h] {
			return nil
		}
		obj, err := w.r.st.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			return w.missing(h, kind)
		}
		switch obj.Type() {
		case plumbing.TreeObject, plumbing.BlobObject, plumbing.CommitObject:
			kind = obj.Type()
			continue
		case plumbing.TagObject:
		default:
			return fmt.Errorf("%s reaches %s, a %s", w.tip, h, obj.Type())
		}
		if _, err := w.visit(h); err != nil {
			return err
		}
		t, err := object.DecodeTag(w.r.st, obj)
		if err != nil {
			return err
		}
		h, kind = t.Target, t.TargetType
	}
}

// history checks the commits h reaches down to the known ones, and
// keeps the new ones for their trees.
func (w *connectivity) history(h plumbing.Hash) error {
	for next := []plumbing.Hash{h}; len(next) > 0; {
		h, next = next[len(next)-1], next[:len(next)-1]
		todo, err := w.visit(h)
		if err != nil {
			return err
		}
		if !todo {
			continue
		}
		c, err := object.GetCommit(w.r.st, h)
		if err != nil {
			return w.missing(h, plumbing.CommitObject)
		}
		w.commits = append(w.commits, c)
		next = append(next, c.ParentHashes...)
	}
	return nil
}

// parentsFirst orders commits so that each comes after those of its
// parents that are among them (a depth-first walk, in post-order).
func parentsFirst(commits []*object.Commit) []*object.Commit {
	byHash := make(map[plumbing.Hash]*object.Commit, len(commits))
	for _, c := range commits {
		byHash[c.Hash] = c
	}
	type frame struct {
		c    *object.Commit
		next int // the parent to go to next
	}
	out := make([]*object.Commit, 0, len(commits))
	taken := map[plumbing.Hash]bool{}
	for _, root := range commits {
		if taken[root.Hash] {
			continue
		}
		taken[root.Hash] = true
		stack := []frame{{c: root}}
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.next == len(f.c.ParentHashes) {
				out = append(out, f.c)
				stack = stack[:len(stack)-1]
				continue
			}
			p, ok := byHash[f.c.ParentHashes[f.next]]
			f.next++
			if ok && !taken[p.Hash] {
				taken[p.Hash] = true
				stack = append(stack, frame{c: p})
			}
		}
	}
	return out
}

// entries is a tree's entries by name.
type entries map[string]object.TreeEntry

// entries reads tree h's entries (none when it cannot be read: what it
// would have left out is then checked).
func (w *connectivity) entries(h plumbing.Hash) entries {
	t, err := object.GetTree(w.r.st, h)
	if err != nil {
		return nil
	}
	m := make(entries, len(t.Entries))
	for _, e := range t.Entries {
		m[e.Name] = e
	}
	return m
}

// tree checks tree h and what it holds but its bases (the parents'
// trees at the same path) hold too. Gitlinks (submodules) name commits
// of another repository and are left out.
func (w *connectivity) tree(h plumbing.Hash, bases []entries) error {
	todo, err := w.visit(h)
	if !todo {
		return err
	}
	t, err := object.GetTree(w.r.st, h)
	if err != nil {
		return w.missing(h, plumbing.TreeObject)
	}
	for _, e := range t.Entries {
		if e.Mode == filemode.Submodule {
			continue
		}
		var subs []entries
		held := false
		for _, b := range bases {
			be, ok := b[e.Name]
			switch {
			case ok && be.Hash == e.Hash:
				held = true
			case ok && be.Mode == filemode.Dir && e.Mode == filemode.Dir:
				subs = append(subs, w.entries(be.Hash))
			}
		}
		switch {
		case held:
		case e.Mode == filemode.Dir:
			err = w.tree(e.Hash, subs)
		default:
			err = w.blob(e.Hash)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (w *connectivity) blob(h plumbing.Hash) error {
	todo, err := w.visit(h)
	if !todo {
		return err
	}
	return w.present(h, plumbing.BlobObject)
}

func (w *connectivity) present(h plumbing.Hash, kind plumbing.ObjectType) error {
	if w.r.st.HasEncodedObject(h) != nil {
		return w.missing(h, kind)
	}
	return nil
}

func (w *connectivity) missing(h plumbing.Hash, kind plumbing.ObjectType) error {
	what := "object"
	if kind != plumbing.AnyObject {
		what = kind.String()
	}
	return fmt.Errorf("missing necessary objects: %s reaches %s %s, which is in neither the pack nor the repository", w.tip, what, h)
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
