package regclient

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/partial"
	"golang.org/x/sync/errgroup"
)

// writeLayout adds the image or index to an OCI layout at dir, creating
// it, and names it after the tag. It writes what go-containerregistry's
// layout.AppendImage and AppendIndex write, file for file, but fetches
// the blobs of the whole image or index concurrently (that code fetches
// an index's images one after another), never asks for a blob the layout
// already holds, and writes every file under a temporary name first: a
// pull that fails leaves no blob half-written, and index.json names the
// image only once all of it is there. Anything that fails calls stop.
func writeLayout(dir string, ref name.Reference, img v1.Image, idx v1.ImageIndex, stop func(error)) error {
	p, err := openOrCreateLayout(dir)
	if err != nil {
		return err
	}
	w := &layoutWriter{dir: dir, seen: map[v1.Hash]bool{}, stop: stop}
	w.g.SetLimit(pullJobs)
	var desc *v1.Descriptor
	if idx != nil {
		if err = w.index(idx); err == nil {
			desc, err = partial.Descriptor(idx)
		}
	} else {
		if err = w.image(img); err == nil {
			desc, err = partial.Descriptor(img)
		}
	}
	if err != nil {
		stop(err) // a manifest or config that fails ends the pull as a blob does
	}
	if werr := w.g.Wait(); err == nil {
		err = werr
	}
	if err != nil {
		return err
	}
	// Configs and manifests after the blobs they name, children first.
	for _, b := range w.small {
		if err := w.put(b.digest, int64(len(b.data)), func(f io.Writer) error { _, err := f.Write(b.data); return err }); err != nil {
			return err
		}
	}
	if tag, ok := ref.(name.Tag); ok {
		desc.Annotations = map[string]string{
			"org.opencontainers.image.ref.name": tag.TagStr(),
			"io.forge.image.name":               tag.Name(),
		}
	}
	return p.AppendDescriptor(*desc)
}

// layoutWriter writes the blobs of an image or index into a layout: the
// layers fetched concurrently as they are found, the small ones (configs
// and manifests) kept in memory to write last.
type layoutWriter struct {
	dir   string
	stop  func(error)
	g     errgroup.Group
	seen  map[v1.Hash]bool
	small []smallBlob
}

type smallBlob struct {
	digest v1.Hash
	data   []byte
}

func (w *layoutWriter) image(img v1.Image) error {
	m, err := img.Manifest()
	if err != nil {
		return err
	}
	layers, err := layersOf(img)
	if err != nil {
		return err
	}
	for _, l := range layers {
		w.fetch(l.digest, l.size, l.Layer)
	}
	// The config is read only when the layout lacks it.
	if !w.seen[m.Config.Digest] && !w.holds(m.Config.Digest, m.Config.Size) {
		cfg, err := img.RawConfigFile()
		if err != nil {
			return err
		}
		w.keep(m.Config.Digest, cfg)
	}
	return w.keepManifest(img)
}

// index walks an index as layout.WriteIndex does: child indexes and
// images, and anything else as a plain blob.
func (w *layoutWriter) index(ii v1.ImageIndex) error {
	im, err := ii.IndexManifest()
	if err != nil {
		return err
	}
	for _, desc := range im.Manifests {
		switch {
		case desc.MediaType.IsIndex():
			child, err := ii.ImageIndex(desc.Digest)
			if err == nil {
				err = w.index(child)
			}
			if err != nil {
				return err
			}
		case desc.MediaType.IsImage():
			img, err := ii.Image(desc.Digest)
			if err == nil {
				err = w.image(img)
			}
			if err != nil {
				return err
			}
		default:
			wl, ok := ii.(interface {
				Layer(v1.Hash) (v1.Layer, error)
			})
			if !ok {
				return fmt.Errorf("cannot read %s (%s) of the index", desc.Digest, desc.MediaType)
			}
			l, err := wl.Layer(desc.Digest)
			if err != nil {
				return err
			}
			w.fetch(desc.Digest, desc.Size, l)
		}
	}
	return w.keepManifest(ii)
}

// keepManifest keeps an image's or index's own manifest.
func (w *layoutWriter) keepManifest(x interface {
	Digest() (v1.Hash, error)
	RawManifest() ([]byte, error)
}) error {
	d, err := x.Digest()
	if err != nil {
		return err
	}
	raw, err := x.RawManifest()
	if err == nil {
		w.keep(d, raw)
	}
	return err
}

// fetch starts copying a layer into the layout, unless this pull has
// already or the layout holds it.
func (w *layoutWriter) fetch(d v1.Hash, size int64, l v1.Layer) {
	if w.seen[d] {
		return
	}
	w.seen[d] = true
	w.g.Go(stopping(w.stop, func() error {
		return w.put(d, size, func(f io.Writer) error { return copyBlob(f, d, size, l) })
	}))
}

func (w *layoutWriter) keep(d v1.Hash, data []byte) {
	if !w.seen[d] {
		w.seen[d] = true
		w.small = append(w.small, smallBlob{d, data})
	}
}

// holds reports whether the layout has blob d, of size bytes (the
// check go-containerregistry's layout code makes: hashing every blob
// again would cost what fetching it does).
func (w *layoutWriter) holds(d v1.Hash, size int64) bool {
	fi, err := os.Stat(filepath.Join(w.dir, "blobs", d.Algorithm, d.Hex))
	return err == nil && fi.Mode().IsRegular() && fi.Size() == size
}

// put writes blob d of size bytes through write, under a temporary name
// renamed when complete, unless the layout holds it already.
func (w *layoutWriter) put(d v1.Hash, size int64, write func(io.Writer) error) error {
	if w.holds(d, size) {
		return nil
	}
	dir := filepath.Join(w.dir, "blobs", d.Algorithm)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// The plain Writer keeps io.CopyBuffer to forge's piece size (an
	// *os.File would copy through its own).
	return writeFileAtomic(filepath.Join(dir, d.Hex), func(f *os.File) error { return write(struct{ io.Writer }{f}) })
}

func openOrCreateLayout(dir string) (layout.Path, error) {
	if _, err := os.Stat(filepath.Join(dir, "index.json")); err == nil {
		return layout.FromPath(dir)
	}
	entries, err := os.ReadDir(dir)
	if err == nil && len(entries) > 0 {
		return "", fmt.Errorf("%s is a directory that is not empty and not an OCI layout: name a new or empty directory", dir)
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	return layout.Write(dir, empty.Index)
}
