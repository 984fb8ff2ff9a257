package regclient

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// Pull formats.
const (
	FormatTarball = "tarball" // a `docker load`-able tarball
	FormatOCI     = "oci"     // an OCI image layout directory
)

// PullOptions tune Pull.
type PullOptions struct {
	// Format is FormatTarball (default) or FormatOCI.
	Format string
	// Platform picks one image of an index. Unset, an OCI layout gets the
	// whole index, and a tarball the index's only image or else the
	// linux image for this machine's architecture.
	Platform *v1.Platform
	// Progress, when set, is called as blob bytes arrive with the total
	// received and the total expected.
	Progress func(done, total int64)
}

// PullResult says what was pulled.
type PullResult struct {
	Digest   v1.Hash // of the image or index written
	Platform string  // the platform picked from an index, if any
	Images   int     // images written
	Bytes    int64   // blob bytes received
}

// Pull writes ref to dest (a file, "-" for out, or a layout directory),
// streaming blobs to disk: memory does not grow with the image. Into a
// file or a layout, pullJobs blobs arrive at once. A tarball is written
// to a temporary file and renamed, so an interrupted pull leaves nothing
// half-written.
func (c *Client) Pull(ctx context.Context, ref name.Reference, dest string, out io.Writer, o PullOptions) (*PullResult, error) {
	if o.Format == "" {
		o.Format = FormatTarball
	}
	if o.Format != FormatTarball && o.Format != FormatOCI {
		return nil, fmt.Errorf("unknown format %q: use tarball or oci", o.Format)
	}
	if o.Format == FormatOCI && dest == "-" {
		return nil, fmt.Errorf("an OCI layout is a directory and cannot go to stdout: name a directory, or use --format tarball")
	}
	// A blob that fails stops the others of the pull at once, and is the
	// pull's error: not the cancellation it caused them, which may reach
	// the errgroup first and reads as an interrupt (exit 130).
	parent := ctx
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	counter := &byteCounter{report: o.Progress}
	opts := c.options(ctx, remote.WithTransport(&countingTransport{base: c.transport, counter: counter}))
	desc, err := remote.Get(ref, opts...)
	if err != nil {
		return nil, c.wrap(err, ref.String())
	}
	res := &PullResult{Digest: desc.Digest, Images: 1}
	var img v1.Image
	var idx v1.ImageIndex
	switch {
	case desc.MediaType.IsIndex() && o.Format == FormatOCI && o.Platform == nil:
		if idx, err = desc.ImageIndex(); err != nil {
			return nil, c.wrap(err, ref.String())
		}
		counter.total.Store(indexSize(idx))
		im, _ := idx.IndexManifest()
		res.Images = len(im.Manifests)
	case desc.MediaType.IsIndex():
		idx, err := desc.ImageIndex()
		if err != nil {
			return nil, c.wrap(err, ref.String())
		}
		d, plat, err := pickPlatform(idx, o.Platform, ref)
		if err != nil {
			return nil, err
		}
		if img, err = idx.Image(d); err != nil {
			return nil, c.wrap(err, ref.String())
		}
		res.Digest, res.Platform = d, plat
	default:
		if img, err = desc.Image(); err != nil {
			return nil, c.wrap(err, ref.String())
		}
		if err := checkPlatform(img, o.Platform, ref); err != nil {
			return nil, err
		}
	}
	if img != nil {
		counter.total.Store(imageSize(img))
	}
	switch {
	case o.Format == FormatOCI:
		err = writeLayout(dest, ref, img, idx, stop)
	case dest == "-":
		bw := bufio.NewWriterSize(out, tarWriteSize)
		if err = tarball.Write(ref, img, bw); err == nil {
			err = bw.Flush()
		}
	default:
		if fi, serr := os.Stat(dest); serr == nil && fi.IsDir() {
			err = fmt.Errorf("%s is a directory: name a file for the tarball, or use --format oci", dest)
			break
		}
		err = writeFileAtomic(dest, func(f *os.File) error { return writeTarballFile(f, ref, img, stop) })
	}
	res.Bytes = counter.done.Load()
	if cause := context.Cause(ctx); err != nil && cause != nil && parent.Err() == nil {
		err = cause
	}
	if err != nil {
		return nil, c.wrapLocal(err, ref.String(), dest)
	}
	return res, nil
}

// pickPlatform finds the image of an index for want; unset, the only
// image, else linux on this machine's architecture.
func pickPlatform(idx v1.ImageIndex, want *v1.Platform, ref name.Reference) (v1.Hash, string, error) {
	im, err := idx.IndexManifest()
	if err != nil {
		return v1.Hash{}, "", err
	}
	var images []v1.Descriptor
	for _, d := range im.Manifests {
		// Attestations and other artifacts carry "unknown/unknown".
		if d.MediaType.IsImage() && (d.Platform == nil || d.Platform.OS != "unknown") {
			images = append(images, d)
		}
	}
	if want == nil && len(images) == 1 {
		return images[0].Digest, platformString(images[0].Platform), nil
	}
	spec := want
	if spec == nil {
		spec = &v1.Platform{OS: "linux", Architecture: runtime.GOARCH}
	}
	var have []string
	for _, d := range images {
		if d.Platform != nil && d.Platform.Satisfies(*spec) {
			return d.Digest, platformString(d.Platform), nil
		}
		have = append(have, platformString(d.Platform))
	}
	return v1.Hash{}, "", fmt.Errorf("%s has no %s image (it has %s): pick one with --platform", ref, spec, strings.Join(have, ", "))
}

// checkPlatform refuses a single image whose platform differs from the one
// asked for.
func checkPlatform(img v1.Image, want *v1.Platform, ref name.Reference) error {
	if want == nil {
		return nil
	}
	cfg, err := img.ConfigFile()
	if err != nil || cfg.Platform() == nil {
		return err
	}
	if !cfg.Platform().Satisfies(*want) {
		return fmt.Errorf("%s is a single %s image, not %s", ref, cfg.Platform(), want)
	}
	return nil
}

func platformString(p *v1.Platform) string {
	if p == nil {
		return "unknown"
	}
	return p.String()
}

// tarWriteSize is the size of the writes of a tarball sent to stdout,
// which go-containerregistry's tarball.Write writes in order (a pipe has
// no offsets to place layers at; a file gets writeTarballFile). The
// buffer joins tar's headers to the data that follows. On that path,
// reading 32 KiB at a time, 1 MiB writes took twice the system time of
// 32 KiB ones on a 1 GiB pull (2.5–2.9 s against 1.0–1.2 s;
// bench/README.md).
const tarWriteSize = 32 << 10

// writeFileAtomic writes path (mode 0644) through a temporary file
// beside it, renamed once whole: a write that fails leaves nothing.
func writeFileAtomic(path string, write func(*os.File) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".forge-pull-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func imageSize(img v1.Image) int64 {
	m, err := img.Manifest()
	if err != nil {
		return 0
	}
	n := m.Config.Size
	for _, l := range m.Layers {
		n += l.Size
	}
	return n
}

func indexSize(idx v1.ImageIndex) int64 {
	var n int64
	eachImage(idx, func(img v1.Image) error { n += imageSize(img); return nil })
	return n
}

// byteCounter adds up blob bytes received.
type byteCounter struct {
	done, total atomic.Int64
	report      func(done, total int64)
}

func (b *byteCounter) add(n int) {
	d := b.done.Add(int64(n))
	if b.report != nil {
		b.report(d, b.total.Load())
	}
}

// countingTransport counts the bytes of blob downloads as they are read.
type countingTransport struct {
	base    http.RoundTripper
	counter *byteCounter
}

func (t *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err == nil && req.Method == http.MethodGet && strings.Contains(req.URL.Path, "/blobs/") && resp.StatusCode == http.StatusOK {
		resp.Body = &countingBody{ReadCloser: resp.Body, counter: t.counter}
	}
	return resp, err
}

type countingBody struct {
	io.ReadCloser
	counter *byteCounter
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.counter.add(n)
	}
	return n, err
}
