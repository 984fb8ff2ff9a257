package regclient_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/forgehq/forge/regclient"
	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// pushedImage pushes a three-layer image whose first layer appears twice
// (a tarball holds it once) as alice's app:1, and returns its reference
// and the image as the registry serves it.
func pushedImage(t *testing.T, e *env) (name.Reference, v1.Image, []remote.Option) {
	t.Helper()
	img := randomImage(t, 3000, 3)
	ls, _ := img.Layers()
	img, err := mutate.AppendLayers(img, ls[0])
	if err != nil {
		t.Fatal(err)
	}
	ref := mustRef(t, e.as(t, "alice"), "app:1")
	opts := []remote.Option{remote.WithAuth(&authn.Basic{Username: "alice", Password: passwords["alice"]}), remote.WithTransport(e.transport)}
	if err := remote.Write(ref, img, opts...); err != nil {
		t.Fatal(err)
	}
	served, err := remote.Image(ref, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return ref, served, opts
}

// forge writes a tarball's layers concurrently at their offsets: the file
// is byte for byte what go-containerregistry's tarball.Write (one layer
// after another) makes of the same image.
func TestPulledTarballIsTarballWrite(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ref, served, _ := pushedImage(t, e)
	out := filepath.Join(e.dir, "app.tar")
	if _, err := e.as(t, "alice").Pull(context.Background(), ref, out, nil, regclient.PullOptions{}); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := tarball.Write(ref, served, &want); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("forge's tarball (%d bytes) differs from tarball.Write's (%d bytes)", len(got), want.Len())
	}
}

// forge's OCI layout holds what go-containerregistry's layout code writes,
// file for file, for an image and for an index of two; pulling into a
// layout that holds the image already fetches no blob.
func TestPulledLayoutIsLayoutAppend(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	ref, served, opts := pushedImage(t, e)
	_, idx, _ := twoPlatformLayout(t, e.dir)
	idxRef := mustRef(t, e.as(t, "alice"), "multi:1")
	if err := remote.WriteIndex(idxRef, idx, opts...); err != nil {
		t.Fatal(err)
	}
	servedIdx, err := remote.Index(idxRef, opts...)
	if err != nil {
		t.Fatal(err)
	}
	count := &getCounter{inner: e.transport, part: "/blobs/"}
	c := e.through(t, count)
	mine, theirs := filepath.Join(e.dir, "forge"), filepath.Join(e.dir, "ggcr")
	for _, r := range []name.Reference{ref, idxRef} {
		if _, err := c.Pull(ctx, r, mine, nil, regclient.PullOptions{Format: regclient.FormatOCI}); err != nil {
			t.Fatal(err)
		}
	}
	lp, err := layout.Write(theirs, empty.Index)
	if err != nil {
		t.Fatal(err)
	}
	annotate := func(r name.Reference) layout.Option {
		tag := r.(name.Tag)
		return layout.WithAnnotations(map[string]string{"org.opencontainers.image.ref.name": tag.TagStr(), "io.forge.image.name": tag.Name()})
	}
	if err := lp.AppendImage(served, annotate(ref)); err != nil {
		t.Fatal(err)
	}
	if err := lp.AppendIndex(servedIdx, annotate(idxRef)); err != nil {
		t.Fatal(err)
	}
	got, want := treeOf(t, mine), treeOf(t, theirs)
	for p, data := range want {
		if g, ok := got[p]; !ok || !bytes.Equal(g, data) {
			t.Errorf("%s: forge wrote %q, go-containerregistry %q", p, clip(g), clip(data))
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("forge wrote %s, go-containerregistry did not", p)
		}
	}

	count.n.Store(0)
	again := filepath.Join(e.dir, "again")
	if err := os.CopyFS(again, os.DirFS(mine)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Pull(ctx, ref, again, nil, regclient.PullOptions{Format: regclient.FormatOCI}); err != nil {
		t.Fatal(err)
	}
	if n := count.n.Load(); n != 0 {
		t.Errorf("pulling into a layout holding the image fetched %d blobs", n)
	}
}

// A tarball pull into a directory names the fix and leaves the
// directory as it was.
func TestPullTarballIntoADirectory(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ref, _, _ := pushedImage(t, e)
	_, err := e.as(t, "alice").Pull(context.Background(), ref, e.dir, nil, regclient.PullOptions{})
	if err == nil || !strings.Contains(err.Error(), "is a directory: name a file for the tarball, or use --format oci") {
		t.Fatalf("a tarball pull into a directory: %v", err)
	}
	for p := range treeOf(t, e.dir) {
		if strings.Contains(p, ".forge-pull-") {
			t.Errorf("the failed pull left %s", p)
		}
	}
}

// A pull cut short in the middle of a layer leaves no tarball, no blob of
// that layer, no temporary file, and an index.json that does not name the
// image.
func TestPullCutShortLeavesNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ref, served, _ := pushedImage(t, e)
	ls, _ := served.Layers()
	big := digestOf(t, ls[1])
	cut := &cutBlob{inner: e.transport, digest: big.String()}
	c := e.through(t, cut)
	ctx := context.Background()
	dir := filepath.Join(e.dir, "out")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Pull(ctx, ref, filepath.Join(dir, "app.tar"), nil, regclient.PullOptions{}); err == nil {
		t.Fatal("a tarball pull whose layer was cut short succeeded")
	}
	if left := treeOf(t, dir); len(left) != 0 {
		t.Errorf("a failed tarball pull left %v", keys(left))
	}
	lay := filepath.Join(e.dir, "layout")
	if _, err := c.Pull(ctx, ref, lay, nil, regclient.PullOptions{Format: regclient.FormatOCI}); err == nil {
		t.Fatal("a layout pull whose layer was cut short succeeded")
	}
	for p, data := range treeOf(t, lay) {
		if strings.Contains(p, big.Hex) || strings.Contains(p, ".forge-pull-") {
			t.Errorf("a failed layout pull left %s", p)
		}
		if p == "index.json" && bytes.Contains(data, []byte(digestOf(t, served).Hex)) {
			t.Errorf("index.json names the image a failed pull did not finish: %s", data)
		}
	}
}

// A layer that fails stops the pull's other downloads at once: the
// registry's other layers stall until their requests are cancelled, in a
// tarball and in a layout pull. The pull's error is the layer's.
func TestPullStopsTheOtherLayersWhenOneFails(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ref, served, _ := pushedImage(t, e)
	ls, _ := served.Layers()
	cut := digestOf(t, ls[1])
	stall := &stallBlobs{cutBlob: cutBlob{inner: e.transport, digest: cut.String()}, stalled: map[string]bool{}}
	for _, l := range ls {
		if d := digestOf(t, l); d != cut {
			stall.stalled["/blobs/"+d.String()] = true
		}
	}
	c := e.through(t, stall)
	for _, format := range []string{regclient.FormatTarball, regclient.FormatOCI} {
		dest := filepath.Join(e.dir, "stop-"+format)
		_, err := c.Pull(context.Background(), ref, dest, nil, regclient.PullOptions{Format: format})
		if err == nil {
			t.Fatalf("%s: a pull whose layer was cut short succeeded", format)
		}
		// The layer that failed is the error, not the cancellation of the
		// others it caused (which an interrupt would look like).
		if errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "connection reset by peer") {
			t.Errorf("%s: the pull failed with %v, not the cut layer's error", format, err)
		}
	}
	// A stalled download either was cancelled or never started; none
	// waited its stall out.
	if n := stall.waited.Load(); n != 0 {
		t.Errorf("%d stalled layer downloads went on after another layer failed", n)
	}
}

// An index whose second image cannot be read stops the first image's
// downloads at once too: a failure outside a blob ends the pull as a
// blob's does.
func TestPullStopsTheLayersWhenAManifestFails(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, idx, imgs := twoPlatformLayout(t, e.dir)
	ref := mustRef(t, e.as(t, "alice"), "multi:1")
	opts := []remote.Option{remote.WithAuth(&authn.Basic{Username: "alice", Password: passwords["alice"]}), remote.WithTransport(e.transport)}
	if err := remote.WriteIndex(ref, idx, opts...); err != nil {
		t.Fatal(err)
	}
	im, err := idx.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	// The cut digest is no blob's: only the stalls and the refused
	// manifest apply.
	stall := &stallBlobs{cutBlob: cutBlob{inner: e.transport, digest: "none"}, stalled: map[string]bool{}}
	for _, img := range imgs {
		ls, _ := img.Layers()
		for _, l := range ls {
			stall.stalled["/blobs/"+digestOf(t, l).String()] = true
		}
	}
	second := "/manifests/" + im.Manifests[1].Digest.String()
	asked := &getCounter{inner: &refuseManifest{inner: stall, path: second}, part: second}
	c := e.through(t, asked)
	if _, err := c.Pull(context.Background(), ref, filepath.Join(e.dir, "layout"), nil, regclient.PullOptions{Format: regclient.FormatOCI}); err == nil {
		t.Fatal("a layout pull whose second manifest was refused succeeded")
	}
	if asked.n.Load() == 0 {
		t.Fatal("the second image's manifest was never asked for")
	}
	if n := stall.waited.Load(); n != 0 {
		t.Errorf("%d stalled layer downloads went on after a manifest failed", n)
	}
}

// refuseManifest answers 404 to the GETs of the manifest at path.
type refuseManifest struct {
	inner http.RoundTripper
	path  string
}

func (r *refuseManifest) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodGet && strings.HasSuffix(req.URL.Path, r.path) {
		body := `{"errors":[{"code":"MANIFEST_UNKNOWN","message":"manifest unknown"}]}`
		return &http.Response{StatusCode: http.StatusNotFound, Status: "404 Not Found", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(strings.NewReader(body)),
			ContentLength: int64(len(body)), Request: req}, nil
	}
	return r.inner.RoundTrip(req)
}

// stallBlobs is cutBlob that also holds the bodies of the stalled blobs
// until their request is cancelled, or for 20 seconds (counted).
type stallBlobs struct {
	cutBlob
	stalled map[string]bool
	waited  atomic.Int64
}

func (s *stallBlobs) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := s.cutBlob.RoundTrip(req)
	for suffix := range s.stalled {
		if err == nil && req.Method == http.MethodGet && strings.HasSuffix(req.URL.Path, suffix) {
			select {
			case <-req.Context().Done():
				resp.Body.Close()
				return nil, req.Context().Err()
			case <-time.After(20 * time.Second):
				s.waited.Add(1)
			}
		}
	}
	return resp, err
}

// cutBlob ends the body of one blob with an error after its first bytes,
// as a dropped connection would.
type cutBlob struct {
	inner  http.RoundTripper
	digest string
}

func (c *cutBlob) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := c.inner.RoundTrip(req)
	if err == nil && req.Method == http.MethodGet && strings.HasSuffix(req.URL.Path, "/blobs/"+c.digest) {
		resp.Body = &cutBody{ReadCloser: resp.Body, left: 100}
	}
	return resp, err
}

type cutBody struct {
	io.ReadCloser
	left int
}

func (b *cutBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, errors.New("connection reset by peer")
	}
	if len(p) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= n
	return n, err
}

// treeOf is every file under dir by its slash path, with its content.
func treeOf(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)], err = os.ReadFile(p)
		return err
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return files
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func clip(b []byte) []byte {
	if len(b) > 80 {
		return b[:80]
	}
	return b
}

// through is alice's client of the service's registry, its requests
// carried by t.
func (e *env) through(t *testing.T, rt http.RoundTripper) *regclient.Client {
	t.Helper()
	c, err := regclient.New(regclient.Options{RegistryURL: e.srv.URL(), Username: "alice", Password: passwords["alice"], Transport: rt, Service: true})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
