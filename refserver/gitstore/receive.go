package gitstore

import (
	"errors"
	"fmt"
	"io"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// Receive applies a push, as git's receive-pack does: it stores the
// pack's objects, then moves each ref as its command says. unpackErr
// fails the whole push (no ref moves); otherwise refErrs holds the
// commands refused, by name. pack is nil when every command deletes (git
// sends no pack then). Callers hold the write lock.
//
// The pack is parsed here and its objects stored one by one, rather than
// handed whole to the storage: git pushes thin packs, whose deltas name
// base objects the repository already has and the pack leaves out, and
// go-git's filesystem storage indexes a pack on its own, finding bases
// only within it ("reference delta not found" on every push after the
// first). The parser resolves each delta against the repository's
// objects, in memory and on disk alike, and needs no git binary on the
// server.
func (r *Repo) Receive(cmds []*packp.Command, pack io.ReadSeeker) (unpackErr error, refErrs map[plumbing.ReferenceName]error) {
	if pack != nil {
		if err := r.unpack(pack); err != nil {
			return err, nil
		}
	}
	refErrs = map[plumbing.ReferenceName]error{}
	for _, c := range cmds {
		if err := r.apply(c); err != nil {
			refErrs[c.Name] = err
		}
	}
	if err := r.Sync(); err != nil {
		return err, nil
	}
	return nil, refErrs
}

// objectsOnly hides the storage's pack writer and lazy object writer
// from the parser: the first indexes a pack without the repository's
// objects, the second keeps a file open per object until the whole pack
// is read (a push of many objects would run out of file descriptors).
type objectsOnly struct{ storer.EncodedObjectStorer }

func (r *Repo) unpack(pack io.ReadSeeker) error {
	p, err := packfile.NewParserWithStorage(packfile.NewScanner(pack), objectsOnly{r.st})
	if err != nil {
		return err
	}
	_, err = p.Parse()
	if errors.Is(err, packfile.ErrReferenceDeltaNotFound) {
		return errors.New("a delta's base object is neither in the pack nor in the repository")
	}
	return err
}

// apply moves one ref: a create needs the ref absent, an update or delete
// needs it where the pusher saw it (another push may have moved it since
// the advertisement), a branch points at a commit, and the branch HEAD
// names (the default branch) is never deleted.
func (r *Repo) apply(c *packp.Command) error {
	if err := CheckRefName(c.Name.String()); err != nil {
		return err
	}
	cur, err := r.st.Reference(c.Name)
	exists := err == nil
	if err != nil && !errors.Is(err, plumbing.ErrReferenceNotFound) {
		return err
	}
	switch {
	case c.Action() == packp.Create && exists:
		return fmt.Errorf("%s already exists", c.Name)
	case c.Action() != packp.Create && !exists:
		return fmt.Errorf("%s does not exist", c.Name)
	case c.Action() != packp.Create && cur.Hash() != c.Old:
		return fmt.Errorf("%s is at %s, not %s: fetch and push again", c.Name, cur.Hash(), c.Old)
	}
	if c.Action() == packp.Delete {
		if head, err := r.st.Reference(plumbing.HEAD); err == nil && head.Target() == c.Name {
			return fmt.Errorf("deletion of the current branch prohibited: %s is the default branch; make another one the default first", c.Name.Short())
		}
		return r.st.RemoveReference(c.Name)
	}
	obj, err := r.st.EncodedObject(plumbing.AnyObject, c.New)
	if err != nil {
		return fmt.Errorf("missing necessary objects: %s is not in the pack or the repository", c.New)
	}
	if c.Name.IsBranch() && obj.Type() != plumbing.CommitObject {
		return fmt.Errorf("a branch points at a commit, and %s is a %s", c.New, obj.Type())
	}
	return r.setRef(plumbing.NewHashReference(c.Name, c.New))
}

// setRef writes a ref whose name CheckRefName accepts: every ref the
// server writes passes through here.
func (r *Repo) setRef(ref *plumbing.Reference) error {
	if err := CheckRefName(ref.Name().String()); err != nil {
		return err
	}
	return r.st.SetReference(ref)
}
