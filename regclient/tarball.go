package regclient

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/partial"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
	"golang.org/x/sync/errgroup"
)

// tarManifest is one entry of a `docker save` tarball's manifest.json.
type tarManifest struct {
	Config       string
	RepoTags     []string
	Layers       []string
	LayerSources map[v1.Hash]v1.Descriptor `json:",omitempty"`
}

// openTarball opens a `docker save` tarball. Its compressed layers are
// read in place and hashed in parallel; a tarball with uncompressed layers
// (as `docker save` writes them) goes through go-containerregistry's
// tarball package, which compresses them, as crane does.
func openTarball(path, label string, cache digestCache) (*Source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	entries, err := indexTar(f)
	if err != nil {
		f.Close()
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("%s is truncated or corrupt: the tar archive ends early", label)
		}
		return nil, fmt.Errorf("%s is not a tar archive (%v): give a `docker save` tarball or an OCI layout directory", label, err)
	}
	s, err := readTarball(f, path, label, entries, cache)
	if err != nil {
		f.Close()
		return nil, err
	}
	if s.image == nil {
		// Uncompressed layers: go-containerregistry reads the file itself.
		f.Close()
		img, err := tarball.ImageFromPath(path, nil)
		if err == nil {
			_, err = img.Manifest()
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", label, err)
		}
		s.image = img
		return s, nil
	}
	s.cleanup = append(s.cleanup, func() { f.Close() })
	return s, nil
}

// readTarball checks manifest.json and the config, and builds the image
// when every layer is compressed; s.image stays nil otherwise.
func readTarball(f *os.File, path, label string, entries map[string]tarEntry, cache digestCache) (*Source, error) {
	me, ok := lookup(entries, "manifest.json")
	if !ok {
		return nil, notAnImage(label, entries)
	}
	var manifests []tarManifest
	if err := json.NewDecoder(io.NewSectionReader(f, me.offset, me.size)).Decode(&manifests); err != nil {
		return nil, fmt.Errorf("%s: manifest.json is not valid: %v", label, err)
	}
	switch {
	case len(manifests) == 0:
		return nil, fmt.Errorf("%s: manifest.json lists no image", label)
	case len(manifests) > 1:
		var tags []string
		for _, m := range manifests {
			tags = append(tags, m.RepoTags...)
		}
		return nil, fmt.Errorf("%s holds %d images (%s); forge pushes one: save a single image with `docker save IMAGE -o FILE`", label, len(manifests), strings.Join(tags, ", "))
	}
	m := manifests[0]
	ce, ok := lookup(entries, m.Config)
	if !ok {
		return nil, fmt.Errorf("%s: the config %s named by manifest.json is missing", label, m.Config)
	}
	rawConfig := make([]byte, ce.size)
	if _, err := f.ReadAt(rawConfig, ce.offset); err != nil {
		return nil, fmt.Errorf("%s: reading the config: %w", label, err)
	}
	cfg, err := v1.ParseConfigFile(bytes.NewReader(rawConfig))
	if err != nil {
		return nil, fmt.Errorf("%s: the image config is not valid: %w", label, err)
	}
	if len(cfg.RootFS.DiffIDs) != len(m.Layers) {
		return nil, fmt.Errorf("%s: manifest.json names %d layers but the config has %d: the tarball is corrupt", label, len(m.Layers), len(cfg.RootFS.DiffIDs))
	}
	s := &Source{Desc: "docker tarball " + label}
	layers := make([]*tarLayer, len(m.Layers))
	for i, p := range m.Layers {
		le, ok := lookup(entries, p)
		if !ok {
			return nil, fmt.Errorf("%s: layer %s named by manifest.json is missing: the tarball is corrupt", label, p)
		}
		sr := io.NewSectionReader(f, le.offset, le.size)
		comp := compressionOf(sr)
		if comp == "" || len(m.LayerSources) > 0 {
			return s, nil
		}
		layers[i] = &tarLayer{sr: sr, key: fmt.Sprintf("%d:%d", le.offset, le.size), desc: v1.Descriptor{MediaType: layerMediaType(comp), Size: le.size}}
	}
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	known := cache.lookup(path, fi)
	for _, l := range layers {
		if d, err := v1.NewHash(known[l.key]); err == nil {
			l.desc.Digest = d
			l.hashed.Store(true)
		}
	}
	// The layers the cache does not know are hashed when first asked:
	// a push hashes each just before uploading it, several at once, so
	// hashing one layer overlaps the upload of another (as crane does)
	// instead of all hashing coming before the first byte is sent.
	ti := &tarImage{rawConfig: rawConfig, layers: layers, label: label, save: func(digests map[string]string) { cache.store(path, fi, digests) }}
	for _, l := range layers {
		l.dirty = &ti.dirty
	}
	img, err := partial.CompressedToImage(ti)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	s.image, s.tar = img, ti
	return s, nil
}

// tarImage is a docker tarball's image with compressed layers.
type tarImage struct {
	rawConfig []byte
	layers    []*tarLayer
	label     string
	// save remembers the digests ("offset:size" -> digest) once all are
	// known; called again only when more were hashed since.
	save   func(map[string]string)
	saveMu sync.Mutex
	dirty  atomic.Bool // a layer was hashed since the last save
}

// digestsKnown reports whether every layer's digest is known without
// reading the file (all of them came from the digest cache, or were
// hashed already).
func (t *tarImage) digestsKnown() bool {
	for _, l := range t.layers {
		if !l.hashed.Load() {
			return false
		}
	}
	return true
}

// hashAll hashes the layers not hashed yet, as many at once as there are
// CPUs, and remembers the digests.
func (t *tarImage) hashAll() error {
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, l := range t.layers {
		if !l.hashed.Load() {
			g.Go(func() error {
				_, err := l.Digest()
				return err
			})
		}
	}
	if err := g.Wait(); err != nil {
		return fmt.Errorf("%s: reading a layer: %w", t.label, err)
	}
	t.saveMu.Lock()
	defer t.saveMu.Unlock()
	if t.dirty.Swap(false) && t.save != nil {
		digests := map[string]string{}
		for _, l := range t.layers {
			digests[l.key] = l.desc.Digest.String()
		}
		t.save(digests)
	}
	return nil
}

// lazyLayers are the layers, each distinct entry of the tarball once,
// without hashing any.
func (t *tarImage) lazyLayers() ([]v1.Layer, error) {
	var out []v1.Layer
	seen := map[string]bool{}
	for _, l := range t.layers {
		if seen[l.key] {
			continue
		}
		seen[l.key] = true
		cl, err := partial.CompressedToLayer(l)
		if err != nil {
			return nil, err
		}
		out = append(out, cl)
	}
	return out, nil
}

func (t *tarImage) RawConfigFile() ([]byte, error) { return t.rawConfig, nil }

func (t *tarImage) MediaType() (types.MediaType, error) { return types.DockerManifestSchema2, nil }

func (t *tarImage) RawManifest() ([]byte, error) {
	if err := t.hashAll(); err != nil {
		return nil, err
	}
	cd, cs, err := v1.SHA256(bytes.NewReader(t.rawConfig))
	if err != nil {
		return nil, err
	}
	m := v1.Manifest{
		SchemaVersion: 2,
		MediaType:     types.DockerManifestSchema2,
		Config:        v1.Descriptor{MediaType: types.DockerConfigJSON, Size: cs, Digest: cd},
	}
	for _, l := range t.layers {
		m.Layers = append(m.Layers, l.desc)
	}
	return json.Marshal(m)
}

func (t *tarImage) LayerByDigest(h v1.Hash) (partial.CompressedLayer, error) {
	for _, l := range t.layers {
		if l.desc.Digest == h {
			return l, nil
		}
	}
	return nil, fmt.Errorf("blob %s not found in the tarball", h)
}

// tarLayer is a compressed layer read in place from the tarball. Its
// digest is computed on first use (desc.Digest is set once hashed is).
type tarLayer struct {
	sr     *io.SectionReader
	key    string // offset:size in the tarball, the digest cache's key
	desc   v1.Descriptor
	once   sync.Once
	hashed atomic.Bool
	err    error
	dirty  *atomic.Bool // the image's: set when this layer is hashed
}

func (l *tarLayer) Digest() (v1.Hash, error) {
	if l.hashed.Load() {
		return l.desc.Digest, nil
	}
	l.once.Do(func() {
		// 1 MiB reads, not io.Copy's 32 KiB: 32 times fewer syscalls.
		h := sha256.New()
		if _, err := io.CopyBuffer(h, io.NewSectionReader(l.sr, 0, l.sr.Size()), make([]byte, 1<<20)); err != nil {
			l.err = err
			return
		}
		l.desc.Digest = v1.Hash{Algorithm: "sha256", Hex: hex.EncodeToString(h.Sum(nil))}
		l.hashed.Store(true)
		if l.dirty != nil {
			l.dirty.Store(true)
		}
	})
	return l.desc.Digest, l.err
}

func (l *tarLayer) Size() (int64, error)                { return l.desc.Size, nil }
func (l *tarLayer) MediaType() (types.MediaType, error) { return l.desc.MediaType, nil }
func (l *tarLayer) Compressed() (io.ReadCloser, error) {
	return io.NopCloser(io.NewSectionReader(l.sr, 0, l.sr.Size())), nil
}

var _ partial.CompressedLayer = (*tarLayer)(nil)
