package gitstore

import (
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// Receive applies a push, as git's receive-pack does: it stores the
// pack's objects, then moves each ref as its command says. An error
// fails the whole push (the pack was not stored, or not synced: no ref
// moved or none is sure to last); otherwise refErrs holds the commands
// refused, by name. pack is nil when every command deletes (git
// sends no pack then). Callers hold the write lock.
func (r *Repo) Receive(cmds []*packp.Command, pack *io.SectionReader) (refErrs map[plumbing.ReferenceName]error, err error) {
	if pack != nil {
		if err := r.unpack(pack); err != nil {
			if r.dir != "" {
				removeTemporaries(r.dir)
			}
			return nil, err
		}
	}
	refErrs = map[plumbing.ReferenceName]error{}
	for _, c := range cmds {
		if err := r.apply(c); err != nil {
			refErrs[c.Name] = err
		}
	}
	return refErrs, r.Sync()
}

// unpack stores a pack's objects. git pushes thin packs, whose deltas
// name base objects the repository already has and the pack leaves out;
// go-git's filesystem storage indexes a pack on its own and finds bases
// only within it ("reference delta not found" on every push after the
// first). So the pack is completed first, as git's index-pack --fix-thin
// does: the bases it names and lacks are appended to it from the
// repository, and the storage keeps a whole pack, in memory and on disk
// alike, with no git binary on the server.
func (r *Repo) unpack(pack *io.SectionReader) error {
	var err error
	if pw, ok := r.st.(storer.PackfileWriter); ok {
		err = r.unpackWhole(pw, pack)
	} else {
		// Memory: the parser stores each object, resolving deltas
		// against the repository's objects itself.
		var p *packfile.Parser
		if p, err = packfile.NewParserWithStorage(packfile.NewScanner(pack), r.st); err == nil {
			_, err = p.Parse()
		}
	}
	if errors.Is(err, packfile.ErrReferenceDeltaNotFound) || errors.Is(err, plumbing.ErrObjectNotFound) {
		return errors.New("a delta's base object is neither in the pack nor in the repository")
	}
	return err
}

// unpackWhole completes the pack and hands it to the storage's pack
// writer.
func (r *Repo) unpackWhole(sw storer.PackfileWriter, pack *io.SectionReader) error {
	bases, count, err := r.missingBases(pack)
	if err != nil {
		return err
	}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(writeCompleted(pw, pack, count, bases)) }()
	err = packfile.WritePackfileToObjectStorage(sw, pr)
	pr.CloseWithError(errors.New("the pack was not read to its end"))
	return err
}

// missingBases reads the pack once and returns the objects of the
// repository that its ref-deltas name as bases and it does not hold
// whole, and its object count.
func (r *Repo) missingBases(pack *io.SectionReader) ([]plumbing.EncodedObject, uint32, error) {
	sc := packfile.NewScanner(pack)
	_, count, err := sc.Header()
	if err != nil {
		return nil, 0, err
	}
	inPack := map[plumbing.Hash]bool{}
	var refs []plumbing.Hash
	for i := uint32(0); i < count; i++ {
		oh, err := sc.NextObjectHeader()
		if err != nil {
			return nil, 0, err
		}
		var w io.Writer = io.Discard
		hasher := plumbing.NewHasher(oh.Type, oh.Length)
		switch oh.Type {
		case plumbing.REFDeltaObject:
			refs = append(refs, oh.Reference)
		case plumbing.OFSDeltaObject:
		default:
			w = hasher
		}
		if _, _, err := sc.NextObject(w); err != nil {
			return nil, 0, err
		}
		if w != io.Discard {
			inPack[hasher.Sum()] = true
		}
	}
	var bases []plumbing.EncodedObject
	for _, h := range refs {
		if inPack[h] {
			continue
		}
		inPack[h] = true
		if obj, err := r.st.EncodedObject(plumbing.AnyObject, h); err == nil {
			bases = append(bases, obj)
		}
	}
	if _, err := pack.Seek(0, io.SeekStart); err != nil {
		return nil, 0, err
	}
	return bases, count, nil
}

// writeCompleted writes the pack to w with bases appended: its header
// counts them, its objects follow as they are, then the bases, then the
// SHA-1 of it all.
func writeCompleted(w io.Writer, pack *io.SectionReader, count uint32, bases []plumbing.EncodedObject) error {
	const header, trailer = 12, 20
	if len(bases) == 0 {
		_, err := io.Copy(w, pack)
		return err
	}
	if pack.Size() < header+trailer {
		return packfile.ErrMalformedPackFile
	}
	sum := sha1.New()
	out := io.MultiWriter(w, sum)
	var head [header]byte
	if _, err := pack.ReadAt(head[:], 0); err != nil {
		return err
	}
	binary.BigEndian.PutUint32(head[8:], count+uint32(len(bases)))
	if _, err := out.Write(head[:]); err != nil {
		return err
	}
	if _, err := io.Copy(out, io.NewSectionReader(pack, header, pack.Size()-header-trailer)); err != nil {
		return err
	}
	for _, obj := range bases {
		if err := writeObject(out, obj); err != nil {
			return err
		}
	}
	_, err := w.Write(sum.Sum(nil))
	return err
}

// writeObject writes obj whole in a pack's format: its type and size,
// then its content deflated.
func writeObject(w io.Writer, obj plumbing.EncodedObject) error {
	size := obj.Size()
	b := byte(obj.Type())<<4 | byte(size&0x0f)
	size >>= 4
	var head []byte
	for size > 0 {
		head = append(head, b|0x80)
		b = byte(size & 0x7f)
		size >>= 7
	}
	head = append(head, b)
	if _, err := w.Write(head); err != nil {
		return err
	}
	rd, err := obj.Reader()
	if err != nil {
		return err
	}
	defer rd.Close()
	z := zlib.NewWriter(w)
	if _, err := io.Copy(z, rd); err != nil {
		return err
	}
	return z.Close()
}

// apply moves one ref: a create needs the ref absent, an update or delete
// needs it where the pusher saw it (another push may have moved it since
// the advertisement), a branch points at a commit, everything the new
// value reaches is in the repository (checkConnected), and the branch
// HEAD names (the default branch) is never deleted.
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
	if err := r.checkConnected(c.New, maxConnectivityWalk); err != nil {
		return err
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
