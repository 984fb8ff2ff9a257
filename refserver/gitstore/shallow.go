package gitstore

import (
	"context"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Fetch is what one upload-pack request sends: the objects of the pack
// and, for a shallow client, the commits that become or stop being its
// history's boundary.
type Fetch struct {
	Objects              []plumbing.Hash
	Shallows, Unshallows []plumbing.Hash
}

// PlanFetch works out a fetch that go-git's server cannot serve: one with
// a depth (`git clone --depth N`, `git fetch --deepen N`) or from a
// shallow client. wants are what the client asks for, haves the commits it
// has (all present here), shallow its history's current boundary, depth
// how many commits deep to send (0: no limit), counted from each want or,
// when relative, from the client's boundary. withObjects also lists the
// pack's objects (only the last round sends a pack). Callers hold the
// read lock.
//
// The boundary update depends on the wants, the depth and the client's
// boundary only, as git's own server computes it (git reads it from the
// first round, before any have): a commit at the depth limit that has
// parents becomes shallow; a boundary commit of the client above the limit
// is unshallowed. The pack holds the commits within the depth minus what
// the client has: what its haves reach without going past its boundary.
func (r *Repo) PlanFetch(ctx context.Context, wants, haves, shallow []plumbing.Hash, depth int, relative, withObjects bool) (*Fetch, error) {
	boundary := map[plumbing.Hash]bool{}
	for _, h := range shallow {
		boundary[h] = true
	}
	has := map[plumbing.Hash]bool{}
	if withObjects {
		w := &walker{ctx: ctx, r: r, seen: has}
		for _, h := range haves {
			if err := w.commits(h, boundary); err != nil {
				return nil, err
			}
		}
	} else {
		// Only the tips matter to where the walk below stops.
		for _, h := range haves {
			has[h] = true
		}
	}
	f := &Fetch{}
	send := &walker{ctx: ctx, r: r, seen: map[plumbing.Hash]bool{}, skip: has}
	// level is a commit's depth below a want or the client's boundary
	// (from 1), or -1 where depth does not count.
	type item struct {
		h     plumbing.Hash
		level int
	}
	var queue []item
	visited := map[plumbing.Hash]bool{}
	wantLevel := 1
	if depth == 0 || relative {
		wantLevel = -1
	}
	if relative && depth > 0 {
		for _, h := range shallow {
			c, err := object.GetCommit(r.st, h)
			if err != nil || len(c.ParentHashes) == 0 {
				continue
			}
			visited[h] = true
			f.Unshallows = append(f.Unshallows, h)
			for _, p := range c.ParentHashes {
				queue = append(queue, item{p, 1})
			}
		}
	}
	var within []*object.Commit
	for _, h := range wants {
		c, err := send.peel(h)
		if err != nil {
			return nil, err
		}
		if c != nil {
			queue = append(queue, item{c.Hash, wantLevel})
		}
	}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if visited[it.h] {
			continue // breadth first: the first visit was the shallowest
		}
		visited[it.h] = true
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		counted := it.level > 0
		if !counted && (has[it.h] || boundary[it.h]) {
			continue // the client has it and what it has below
		}
		c, err := object.GetCommit(r.st, it.h)
		if err != nil {
			return nil, fmt.Errorf("commit %s: %w", it.h, err)
		}
		within = append(within, c)
		atLimit := counted && it.level >= depth
		switch {
		case len(c.ParentHashes) == 0:
			continue
		case atLimit:
			if !boundary[c.Hash] {
				f.Shallows = append(f.Shallows, c.Hash)
			}
			continue
		case boundary[c.Hash]:
			f.Unshallows = append(f.Unshallows, c.Hash)
		}
		next := it.level
		if counted {
			next++
		}
		for _, p := range c.ParentHashes {
			queue = append(queue, item{p, next})
		}
	}
	if withObjects {
		for _, c := range within {
			if err := send.commit(c); err != nil {
				return nil, err
			}
		}
		f.Objects = send.out
	}
	return f, nil
}

// walker collects objects once each, leaving out skip.
type walker struct {
	ctx  context.Context
	r    *Repo
	seen map[plumbing.Hash]bool
	skip map[plumbing.Hash]bool
	out  []plumbing.Hash
}

func (w *walker) add(h plumbing.Hash) bool {
	if w.seen[h] || w.skip[h] {
		return false
	}
	w.seen[h] = true
	w.out = append(w.out, h)
	return true
}

// commits marks the history from h, stopping at boundary commits (whose
// parents the client lacks), with every commit's tree.
func (w *walker) commits(h plumbing.Hash, boundary map[plumbing.Hash]bool) error {
	stack := []plumbing.Hash{h}
	for len(stack) > 0 {
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if w.seen[h] {
			continue
		}
		if err := w.ctx.Err(); err != nil {
			return err
		}
		c, err := object.GetCommit(w.r.st, h)
		if err != nil {
			return fmt.Errorf("have %s: %w", h, err)
		}
		if err := w.commit(c); err != nil {
			return err
		}
		if !boundary[h] {
			stack = append(stack, c.ParentHashes...)
		}
	}
	return nil
}

// commit adds c and its tree.
func (w *walker) commit(c *object.Commit) error {
	if !w.add(c.Hash) {
		return nil
	}
	return w.tree(c.TreeHash)
}

func (w *walker) tree(h plumbing.Hash) error {
	if !w.add(h) {
		return nil
	}
	t, err := object.GetTree(w.r.st, h)
	if err != nil {
		return fmt.Errorf("tree %s: %w", h, err)
	}
	for _, e := range t.Entries {
		switch e.Mode {
		case filemode.Dir:
			if err := w.tree(e.Hash); err != nil {
				return err
			}
		case filemode.Submodule:
			// A commit of another repository: not here.
		default:
			w.add(e.Hash)
		}
	}
	return nil
}

// peel adds the tag objects on the way from a wanted h to its commit and
// returns that commit; a wanted tree or blob is added whole (nil commit).
func (w *walker) peel(h plumbing.Hash) (*object.Commit, error) {
	for {
		o, err := w.r.st.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			return nil, fmt.Errorf("want %s: %w", h, err)
		}
		switch o.Type() {
		case plumbing.CommitObject:
			return object.DecodeCommit(w.r.st, o)
		case plumbing.TagObject:
			t, err := object.DecodeTag(w.r.st, o)
			if err != nil {
				return nil, err
			}
			w.add(h)
			h = t.Target
		case plumbing.TreeObject:
			return nil, w.tree(h)
		default:
			w.add(h)
			return nil, nil
		}
	}
}
