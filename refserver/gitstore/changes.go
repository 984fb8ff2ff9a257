package gitstore

import (
	"context"

	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/utils/merkletrie"
)

// Limits of Changes: the files it lists and the bytes it diffs to count
// lines. A commit touching more files is listed up to MaxChangedFiles (as
// GitHub lists 300); a file past the diff budget, or binary, is listed
// without line counts. Both keep one request's work bounded.
const (
	MaxChangedFiles = 300
	maxDiffBytes    = 4 << 20
)

// Change is one file a commit changed, compared with its first parent.
type Change struct {
	Path   string
	Status string // "added", "removed", "modified" or "renamed"
	// Additions and Deletions are nil when not counted (binary, or past the
	// diff budget).
	Additions, Deletions *int
}

// Changes lists the files the commit at ref changed (all of its tree for a
// root commit), by path, and whether the list was cut at MaxChangedFiles.
func (r *Repo) Changes(ctx context.Context, ref string) ([]Change, bool, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	c, err := r.resolve(ref)
	if err != nil {
		return nil, false, err
	}
	to, err := c.Tree()
	if err != nil {
		return nil, false, err
	}
	var from *object.Tree
	if parent, err := c.Parent(0); err == nil {
		if from, err = parent.Tree(); err != nil {
			return nil, false, err
		}
	}
	changes, err := object.DiffTreeWithOptions(ctx, from, to, &object.DiffTreeOptions{DetectRenames: true, OnlyExactRenames: true})
	if err != nil {
		return nil, false, err
	}
	cut := len(changes) > MaxChangedFiles
	if cut {
		changes = changes[:MaxChangedFiles]
	}
	budget := int64(maxDiffBytes)
	out := make([]Change, 0, len(changes))
	for _, ch := range changes {
		out = append(out, describe(ctx, ch, &budget))
	}
	return out, cut, nil
}

// describe names a change and counts its lines while the budget lasts.
func describe(ctx context.Context, ch *object.Change, budget *int64) Change {
	out := Change{Path: ch.To.Name, Status: "modified"}
	action, _ := ch.Action()
	switch {
	case action == merkletrie.Insert:
		out.Status = "added"
	case action == merkletrie.Delete:
		out.Path, out.Status = ch.From.Name, "removed"
	case ch.From.Name != ch.To.Name:
		out.Status = "renamed"
	}
	from, to, err := ch.Files()
	if err != nil {
		return out
	}
	size := int64(0)
	for _, f := range []*object.File{from, to} {
		if f != nil {
			size += f.Size
		}
	}
	if size > *budget {
		return out
	}
	*budget -= size
	patch, err := ch.PatchContext(ctx)
	if err != nil {
		return out
	}
	for _, fp := range patch.FilePatches() {
		if fp.IsBinary() {
			return out
		}
	}
	stats := patch.Stats()
	add, del := 0, 0
	for _, s := range stats {
		add += s.Addition
		del += s.Deletion
	}
	out.Additions, out.Deletions = &add, &del
	return out
}
