package regclient

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// Source is an image or an index to push: a `docker save` tarball, an OCI
// image layout directory, or a tarball read from stdin. Opening it reads
// and checks everything that can be checked locally, so a corrupt or
// non-image file fails before any request.
type Source struct {
	// Desc says what was opened, as "docker tarball app.tar".
	Desc string

	image   v1.Image
	index   v1.ImageIndex
	tar     *tarImage // the image of a tarball with compressed layers
	cleanup []func()
}

// OpenOptions tune Open.
type OpenOptions struct {
	// Stdin is read when the path is "-".
	Stdin io.Reader
	// Context, when it is cancelled (Ctrl-C), stops spooling stdin at
	// once and removes the spool; nil never cancels.
	Context context.Context
	// DigestCache is a directory where the layer digests of tarballs are
	// remembered, so opening an unchanged tarball again hashes nothing;
	// "" hashes every time.
	DigestCache string
}

// Open opens path: "-" reads a tarball from stdin (spooled to a temporary
// file, because a tarball is read out of order), a directory is an OCI
// layout, anything else a `docker save` tarball.
func Open(path string, o OpenOptions) (*Source, error) {
	if path == "-" {
		ctx := o.Context
		if ctx == nil {
			ctx = context.Background()
		}
		return openStdin(ctx, o.Stdin)
	}
	fi, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s: no such file or directory: %w", path, fs.ErrNotExist)
		}
		return nil, err
	}
	if fi.IsDir() {
		return openLayout(path)
	}
	return openTarball(path, path, digestCache{o.DigestCache})
}

// Close removes what opening made (a spooled stdin).
func (s *Source) Close() error {
	for _, f := range s.cleanup {
		f()
	}
	s.cleanup = nil
	return nil
}

// IsIndex reports whether the source is a (multi-platform) index.
func (s *Source) IsIndex() bool { return s.index != nil }

// Image is the image, or nil for an index.
func (s *Source) Image() v1.Image { return s.image }

// Index is the index, or nil for a single image.
func (s *Source) Index() v1.ImageIndex { return s.index }

// Taggable is what a manifest PUT sends.
func (s *Source) Taggable() remote.Taggable {
	if s.index != nil {
		return s.index
	}
	return s.image
}

// Digest is the digest of the manifest or index that will be pushed.
func (s *Source) Digest() (v1.Hash, error) {
	if s.index != nil {
		return s.index.Digest()
	}
	return s.image.Digest()
}

// digestsKnown reports whether the manifest's digest can be had without
// reading the layers: always for a layout, for a tarball when the digest
// cache knew every layer.
func (s *Source) digestsKnown() bool { return s.tar == nil || s.tar.digestsKnown() }

// Layers lists the layers of the image, or of every image of the index,
// each blob once. A tarball's layers are not hashed by listing them.
func (s *Source) Layers() ([]v1.Layer, error) {
	if s.tar != nil {
		return s.tar.lazyLayers()
	}
	var out []v1.Layer
	seen := map[v1.Hash]bool{}
	add := func(img v1.Image) error {
		ls, err := img.Layers()
		if err != nil {
			return err
		}
		for _, l := range ls {
			d, err := l.Digest()
			if err != nil {
				return err
			}
			if !seen[d] {
				seen[d] = true
				out = append(out, l)
			}
		}
		return nil
	}
	if s.image != nil {
		return out, add(s.image)
	}
	return out, eachImage(s.index, add)
}

// eachImage calls fn for every image of an index, depth first.
func eachImage(idx v1.ImageIndex, fn func(v1.Image) error) error {
	im, err := idx.IndexManifest()
	if err != nil {
		return err
	}
	for _, d := range im.Manifests {
		switch {
		case d.MediaType.IsIndex():
			child, err := idx.ImageIndex(d.Digest)
			if err != nil {
				return err
			}
			if err := eachImage(child, fn); err != nil {
				return err
			}
		case d.MediaType.IsImage():
			img, err := idx.Image(d.Digest)
			if err != nil {
				return err
			}
			if err := fn(img); err != nil {
				return err
			}
		}
	}
	return nil
}

func openStdin(ctx context.Context, stdin io.Reader) (*Source, error) {
	tmp, err := os.CreateTemp("", "forge-push-*.tar")
	if err != nil {
		return nil, fmt.Errorf("spooling stdin: %w", err)
	}
	remove := func() { tmp.Close(); os.Remove(tmp.Name()) }
	if err := spool(ctx, tmp, stdin); err != nil {
		remove()
		return nil, fmt.Errorf("reading the tarball from stdin: %w", err)
	}
	if err := tmp.Close(); err != nil {
		remove()
		return nil, fmt.Errorf("spooling stdin: %w", err)
	}
	s, err := openTarball(tmp.Name(), "stdin", digestCache{})
	if err != nil {
		remove()
		return nil, err
	}
	s.cleanup = append(s.cleanup, remove)
	return s, nil
}

// spool copies stdin to f until EOF, or until ctx is cancelled: then at
// once, even while a read waits for a writer that sends nothing (the copy
// is left to fail on the closed file, or to end with the process).
func spool(ctx context.Context, f *os.File, stdin io.Reader) error {
	done := make(chan error, 1)
	go func() {
		_, err := io.Copy(f, stdin)
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// openLayout opens an OCI image layout. An index.json with one entry
// pushes that image or index; with several, the whole index.json is
// pushed as one index, so every platform (or every image) is kept.
func openLayout(dir string) (*Source, error) {
	if _, err := os.Stat(filepath.Join(dir, "index.json")); err != nil {
		return nil, fmt.Errorf("%s is not an OCI image layout: it has no index.json (give a layout directory or a `docker save` tarball)", dir)
	}
	p, err := layout.FromPath(dir)
	if err != nil {
		return nil, fmt.Errorf("%s is not a valid OCI image layout: %w", dir, err)
	}
	ii, err := p.ImageIndex()
	if err != nil {
		return nil, fmt.Errorf("%s: reading index.json: %w", dir, err)
	}
	im, err := ii.IndexManifest()
	if err != nil {
		return nil, fmt.Errorf("%s: index.json is not a valid index: %w", dir, err)
	}
	s := &Source{}
	switch {
	case len(im.Manifests) == 0:
		return nil, fmt.Errorf("%s: the layout holds no image", dir)
	case len(im.Manifests) > 1:
		s.index, s.Desc = ii, fmt.Sprintf("OCI layout %s (%d manifests, pushed as one index)", dir, len(im.Manifests))
	case im.Manifests[0].MediaType.IsIndex():
		if s.index, err = ii.ImageIndex(im.Manifests[0].Digest); err != nil {
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
		s.Desc = "OCI layout " + dir + " (index)"
	case im.Manifests[0].MediaType.IsImage():
		if s.image, err = ii.Image(im.Manifests[0].Digest); err != nil {
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
		s.Desc = "OCI layout " + dir
	default:
		return nil, fmt.Errorf("%s: index.json lists a %s, which is neither an image nor an index", dir, im.Manifests[0].MediaType)
	}
	if err := checkLayoutBlobs(p, s); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return s, nil
}

// checkLayoutBlobs makes sure every blob the source needs is in the layout
// with the size its descriptor gives: a missing or truncated blob is found
// before any upload. (The registry checks every uploaded blob's digest.)
func checkLayoutBlobs(p layout.Path, s *Source) error {
	check := func(d v1.Descriptor) error {
		fi, err := os.Stat(filepath.Join(string(p), "blobs", d.Digest.Algorithm, d.Digest.Hex))
		if err != nil {
			return fmt.Errorf("blob %s is missing from the layout", d.Digest)
		}
		if fi.Size() != d.Size {
			return fmt.Errorf("blob %s has %d bytes, its descriptor says %d: the layout is corrupt", d.Digest, fi.Size(), d.Size)
		}
		return nil
	}
	checkImage := func(img v1.Image) error {
		m, err := img.Manifest()
		if err != nil {
			return fmt.Errorf("reading a manifest: %w", err)
		}
		if err := check(m.Config); err != nil {
			return err
		}
		for _, l := range m.Layers {
			if l.MediaType.IsDistributable() {
				if err := check(l); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if s.image != nil {
		return checkImage(s.image)
	}
	return eachImage(s.index, checkImage)
}

// tarEntry is where a file's content lies in a tarball.
type tarEntry struct {
	offset, size int64
	link         string // target of a hard or symbolic link
}

// indexTar reads a tarball's headers once, remembering where each file
// is, so files can later be read out of order and in parallel.
func indexTar(f *os.File) (map[string]tarEntry, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	entries := map[string]tarEntry{}
	tr := tar.NewReader(f)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil && len(entries) == 0 {
			return nil, errors.New("no tar header at the start")
		}
		if err != nil {
			return nil, err
		}
		// archive/tar reads headers without read-ahead, so the file's
		// position is where the entry's content starts.
		off, err := f.Seek(0, io.SeekCurrent)
		if err != nil {
			return nil, err
		}
		e := tarEntry{offset: off, size: hdr.Size}
		switch hdr.Typeflag {
		case tar.TypeSymlink:
			e.link = filepath.ToSlash(filepath.Join(filepath.Dir(hdr.Name), hdr.Linkname))
		case tar.TypeLink:
			e.link = hdr.Linkname
		}
		if off+e.size > fi.Size() {
			return nil, io.ErrUnexpectedEOF
		}
		entries[filepath.Clean(hdr.Name)] = e
	}
	if len(entries) == 0 {
		return nil, errors.New("empty archive")
	}
	return entries, nil
}

// lookup finds a file, following links a few levels deep.
func lookup(entries map[string]tarEntry, name string) (tarEntry, bool) {
	for range 8 {
		e, ok := entries[filepath.Clean(name)]
		if !ok || e.link == "" {
			return e, ok
		}
		name = e.link
	}
	return tarEntry{}, false
}

// compressionOf names a blob's compression from its first bytes.
func compressionOf(r io.ReaderAt) string {
	var b [4]byte
	n, _ := r.ReadAt(b[:], 0)
	switch {
	case n >= 2 && b[0] == 0x1f && b[1] == 0x8b:
		return "gzip"
	case n >= 4 && b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f && b[3] == 0xfd:
		return "zstd"
	}
	return ""
}

// layerMediaType is the media type a compressed layer of a tarball gets
// in the pushed manifest.
func layerMediaType(compression string) types.MediaType {
	if compression == "zstd" {
		return types.OCILayerZStd
	}
	return types.DockerLayer
}

// notAnImage explains what a file that is not a pushable tarball is.
func notAnImage(label string, entries map[string]tarEntry) error {
	_, hasIndex := entries["index.json"]
	_, hasLayout := entries["oci-layout"]
	if hasIndex && hasLayout {
		return fmt.Errorf("%s is an OCI image archive: unpack it (mkdir dir && tar -xf %s -C dir) and push the directory", label, label)
	}
	return fmt.Errorf("%s is not a `docker save` tarball: it has no manifest.json", label)
}
