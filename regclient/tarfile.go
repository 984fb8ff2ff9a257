package regclient

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"golang.org/x/sync/errgroup"
)

// pullJobs is how many blobs a pull fetches at once (go-containerregistry's
// own bound on a remote image's blob reads).
const pullJobs = 4

// copyBufSize is the piece a pulled blob is read and written in. Each
// read then drains what the socket holds and each write fills more of
// the page cache at once: against io.Copy's 32 KiB, a 1 GiB pull spends
// half the system time (0.49 s against 0.95 s into an OCI layout; 1 MiB
// and 2 MiB pieces gain nothing more; bench/README.md "Registry, round
// five"). pullJobs of them at once is 2 MiB.
const copyBufSize = 512 << 10

// tarFile is one file of a tarball being written: its header at off,
// then its data, from memory (data) or from a layer fetched later.
type tarFile struct {
	off   int64
	hdr   []byte
	size  int64
	data  []byte
	layer *sizedLayer
}

// writeTarballFile writes img to f as tarball.Write would, byte for byte,
// but fetches the layers concurrently, each straight into its place in
// the file. A tar's layout follows from its files' sizes, and the
// manifest gives every layer's size, so each layer's offset is known
// before any of it arrives: no layer waits for the one before it, and
// none is copied twice. A layer that fails calls stop.
func writeTarballFile(f *os.File, ref name.Reference, img v1.Image, stop func(error)) error {
	entries, size, err := planTarball(ref, img)
	if err != nil {
		return err
	}
	// The padding after each file and tar's two closing zero blocks are
	// the zeros of a file's unwritten parts.
	if err := f.Truncate(size); err != nil {
		return err
	}
	// The headers and the small files first: a write that fails then
	// returns before any layer's download has started.
	for _, e := range entries {
		if _, err := f.WriteAt(e.hdr, e.off); err != nil {
			return err
		}
		if e.layer == nil {
			if _, err := f.WriteAt(e.data, e.off+int64(len(e.hdr))); err != nil {
				return err
			}
		}
	}
	g := new(errgroup.Group)
	g.SetLimit(pullJobs)
	for _, e := range entries {
		if e.layer != nil {
			g.Go(stopping(stop, func() error {
				return copyBlob(io.NewOffsetWriter(f, e.off+int64(len(e.hdr))), e.layer.digest, e.size, e.layer)
			}))
		}
	}
	return g.Wait()
}

// planTarball lays out the tarball of img: tarball.Write's files in its
// order (the config, each distinct layer, manifest.json), and the
// tarball's size.
func planTarball(ref name.Reference, img v1.Image) ([]tarFile, int64, error) {
	m, err := tarball.ComputeManifest(map[name.Reference]v1.Image{ref: img})
	if err != nil {
		return nil, 0, err
	}
	mb, err := json.Marshal(m)
	if err != nil {
		return nil, 0, err
	}
	cfgName, err := img.ConfigName()
	if err != nil {
		return nil, 0, err
	}
	cfg, err := img.RawConfigFile()
	if err != nil {
		return nil, 0, err
	}
	layers, err := layersOf(img)
	if err != nil {
		return nil, 0, err
	}
	var p tarPlan
	p.add(cfgName.String(), int64(len(cfg)), cfg, nil)
	seen := map[v1.Hash]bool{}
	for i, l := range layers {
		if !seen[l.digest] {
			seen[l.digest] = true
			p.add(m[0].Layers[i], l.size, nil, &layers[i])
		}
	}
	p.add("manifest.json", int64(len(mb)), mb, nil)
	return p.entries, p.end + 2*blockSize, p.err
}

const blockSize = 512 // a tar block

// tarPlan places files one after another as a tar.Writer would.
type tarPlan struct {
	entries []tarFile
	end     int64
	err     error
}

func (p *tarPlan) add(name string, size int64, data []byte, layer *sizedLayer) {
	var hdr bytes.Buffer
	// tarball.Write's header; tar.Writer writes it out at once.
	err := tar.NewWriter(&hdr).WriteHeader(&tar.Header{Mode: 0o644, Typeflag: tar.TypeReg, Size: size, Name: name})
	if err != nil && p.err == nil {
		p.err = err
	}
	p.entries = append(p.entries, tarFile{off: p.end, hdr: hdr.Bytes(), size: size, data: data, layer: layer})
	p.end += int64(hdr.Len()) + (size+blockSize-1)/blockSize*blockSize
}

// stopping runs f and calls stop with its error when it fails: the other
// blobs of a pull that cannot complete stop downloading at once, rather
// than arriving whole to be thrown away.
func stopping(stop func(error), f func() error) func() error {
	return func() error {
		err := f()
		if err != nil {
			stop(err)
		}
		return err
	}
}

// sizedLayer is a layer with its digest and size, as its manifest gives
// them.
type sizedLayer struct {
	v1.Layer
	digest v1.Hash
	size   int64
}

func layersOf(img v1.Image) ([]sizedLayer, error) {
	layers, err := img.Layers()
	if err != nil {
		return nil, err
	}
	out := make([]sizedLayer, len(layers))
	for i, l := range layers {
		out[i].Layer = l
		if out[i].digest, err = l.Digest(); err != nil {
			return nil, err
		}
		if out[i].size, err = l.Size(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// copyBlob fetches blob d, size bytes as its descriptor says, into dst.
// go-containerregistry checks its digest and size as it is read; forge
// writes no more than size bytes whatever arrives, so a layer written at
// its offset in a tarball never overwrites the file after it.
func copyBlob(dst io.Writer, d v1.Hash, size int64, l v1.Layer) error {
	rc, err := l.Compressed()
	if err != nil {
		return err
	}
	defer rc.Close()
	n, err := io.CopyBuffer(dst, io.LimitReader(rc, size), make([]byte, copyBufSize))
	if err == nil && n != size {
		err = fmt.Errorf("blob %s: the registry sent %d bytes, its descriptor says %d", d, n, size)
	}
	return err
}
