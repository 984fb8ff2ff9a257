package regclient_test

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
	"github.com/forgehq/forge/regclient"
	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

var passwords = map[string]string{"alice": "alice-password-1", "bob": "bob-password-22", "root": "root-password-333"}

type env struct {
	srv       *refserver.Server
	transport *http.Transport
	dir       string
}

// newEnv starts a reference server with alice, bob and the site admin
// root.
func newEnv(t *testing.T) *env {
	t.Helper()
	srv := refservertest.Start(t)
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections) // runs first: see closeIdleClients in refserver/registry
	for u, pw := range passwords {
		role := ""
		if u == "root" {
			role = "site_admin"
		}
		if _, err := srv.CreateUser(u, pw, role); err != nil {
			t.Fatal(err)
		}
	}
	return &env{srv: srv, transport: tr, dir: t.TempDir()}
}

func (e *env) client(t *testing.T, user, password string) *regclient.Client {
	t.Helper()
	c, err := regclient.New(regclient.Options{RegistryURL: e.srv.URL(), Username: user, Password: password, Transport: e.transport, UserAgent: "forge/test", Service: true})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (e *env) as(t *testing.T, user string) *regclient.Client {
	return e.client(t, user, passwords[user])
}

func mustRef(t *testing.T, c *regclient.Client, s string) name.Reference {
	t.Helper()
	ref, err := c.ParseReference(s)
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

func randomImage(t *testing.T, size, layers int64) v1.Image {
	t.Helper()
	img, err := random.Image(size, layers)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// writeTarball saves img as `docker save` would, with compressed layers.
func writeTarball(t *testing.T, dir string, img v1.Image) string {
	t.Helper()
	p := filepath.Join(dir, "img.tar")
	tag, _ := name.NewTag("example.com/x/img:1")
	if err := tarball.WriteToFile(p, tag, img); err != nil {
		t.Fatal(err)
	}
	return p
}

// openTarball writes img as a tarball in dir and opens it, closed when
// the test ends.
func openTarball(t *testing.T, dir string, img v1.Image) *regclient.Source {
	t.Helper()
	src, err := regclient.Open(writeTarball(t, dir, img), regclient.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return src
}

// twoPlatformLayout writes an OCI layout holding one index of a linux/amd64
// and a linux/arm64 image.
func twoPlatformLayout(t *testing.T, dir string) (string, v1.ImageIndex, map[string]v1.Image) {
	t.Helper()
	imgs := map[string]v1.Image{"amd64": randomImage(t, 2048, 2), "arm64": randomImage(t, 2048, 2)}
	idx := mutate.AppendManifests(mutate.IndexMediaType(empty.Index, types.OCIImageIndex),
		mutate.IndexAddendum{Add: imgs["amd64"], Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: "linux", Architecture: "amd64"}}},
		mutate.IndexAddendum{Add: imgs["arm64"], Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: "linux", Architecture: "arm64"}}},
	)
	p := filepath.Join(dir, "multi")
	lp, err := layout.Write(p, empty.Index)
	if err != nil {
		t.Fatal(err)
	}
	if err := lp.AppendIndex(idx); err != nil {
		t.Fatal(err)
	}
	return p, idx, imgs
}

func digestOf(t *testing.T, d interface{ Digest() (v1.Hash, error) }) v1.Hash {
	t.Helper()
	h, err := d.Digest()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestReferences(t *testing.T) {
	t.Parallel()
	c, err := regclient.New(regclient.Options{RegistryURL: "http://127.0.0.1:8080", Username: "Alice", Password: "x", Service: true})
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		"app:1.0":                    "127.0.0.1:8080/alice/app:1.0",
		"app":                        "127.0.0.1:8080/alice/app:latest",
		"bob/app:2":                  "127.0.0.1:8080/bob/app:2",
		"ghcr.io/org/app:1":          "ghcr.io/org/app:1",
		"localhost:5000/x/y:z":       "localhost:5000/x/y:z",
		"localhost/x:1":              "localhost/x:1",
		"127.0.0.1:8080/alice/app:3": "127.0.0.1:8080/alice/app:3",
	} {
		ref, err := c.ParseReference(in)
		if err != nil || ref.Name() != want {
			t.Errorf("ParseReference(%q) = %v, %v; want %s", in, ref, err, want)
		}
	}
	ref, _ := c.ParseReference("app:1")
	if ref.Context().Scheme() != "http" {
		t.Errorf("an http registry URL gives scheme %s", ref.Context().Scheme())
	}
	anon, _ := regclient.New(regclient.Options{RegistryURL: "https://r.example.com"})
	if _, err := anon.ParseReference("app:1"); err == nil || !strings.Contains(err.Error(), "forge image login") {
		t.Errorf("a short reference without a user: %v", err)
	}
	if _, err := regclient.New(regclient.Options{RegistryURL: "127.0.0.1:8080"}); err == nil {
		t.Error("a registry URL without scheme was accepted")
	}
	if err := c.CheckWrite(mustRef(t, c, "bob/app:1").Context(), "push"); err == nil || err.Error() != "you can push only to alice/...: bob/app is not in your namespace (the registry refuses it with 403 Forbidden)" {
		t.Errorf("CheckWrite: %v", err)
	}
	if err := c.CheckWrite(mustRef(t, c, "app:1").Context(), "push"); err != nil {
		t.Errorf("CheckWrite of the own namespace: %v", err)
	}
	if err := c.CheckWrite(mustRef(t, c, "ghcr.io/bob/app:1").Context(), "push"); err != nil {
		t.Errorf("CheckWrite of another registry: %v", err)
	}
}

// events records push progress.
type events struct {
	mu    sync.Mutex
	final map[v1.Hash]regclient.LayerState
	sent  map[v1.Hash]int64
}

func (e *events) record(ev regclient.LayerEvent) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.final == nil {
		e.final, e.sent = map[v1.Hash]regclient.LayerState{}, map[v1.Hash]int64{}
	}
	e.final[ev.Digest] = ev.State
	if ev.Sent > e.sent[ev.Digest] {
		e.sent[ev.Digest] = ev.Sent
	}
}

func (e *events) count(s regclient.LayerState) int {
	n := 0
	for _, st := range e.final {
		if st == s {
			n++
		}
	}
	return n
}

func TestPushPullTarball(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.as(t, "alice")
	ctx := context.Background()
	img := randomImage(t, 4096, 3)
	src := openTarball(t, e.dir, img)
	if digestOf(t, src) != digestOf(t, img) {
		t.Fatalf("the tarball's image has digest %s, want %s", digestOf(t, src), digestOf(t, img))
	}
	ref := mustRef(t, c, "app:1.0")
	var ev events
	res, err := c.Push(ctx, src, ref, regclient.PushOptions{Jobs: 2, Progress: ev.record})
	if err != nil {
		t.Fatal(err)
	}
	if res.Ref.DigestStr() != digestOf(t, img).String() || res.Layers != 3 || res.Sent != 3 {
		t.Fatalf("push result %+v", res)
	}
	if ev.count(regclient.LayerPushed) != 3 {
		t.Fatalf("final states %v", ev.final)
	}
	ls, _ := img.Layers()
	for _, l := range ls {
		d, _ := l.Digest()
		size, _ := l.Size()
		if ev.sent[d] != size {
			t.Errorf("layer %s: progress reached %d of %d bytes", d, ev.sent[d], size)
		}
	}

	// Again: nothing is sent.
	var again events
	res, err = c.Push(ctx, src, ref, regclient.PushOptions{Progress: again.record})
	if err != nil {
		t.Fatal(err)
	}
	// The tag names the same manifest: one HEAD, and no layer reported as
	// present, since none was checked.
	if res.Sent != 0 || !res.Unchanged || len(again.final) != 0 {
		t.Fatalf("re-push sent %d layers, unchanged %v, states %v", res.Sent, res.Unchanged, again.final)
	}

	// Pull it back, as a tarball, and compare.
	out := filepath.Join(e.dir, "pulled.tar")
	// Progress's calls never overlap and never go back (PullOptions),
	// so the last one has the pull's bytes.
	var last int64
	var inside atomic.Int32
	pr, err := c.Pull(ctx, ref, out, nil, regclient.PullOptions{Progress: func(done, total int64) {
		if inside.Add(1) != 1 {
			t.Error("two Progress calls at once")
		}
		if done < last {
			t.Errorf("progress went back from %d to %d", last, done)
		}
		last = done
		inside.Add(-1)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if pr.Digest != digestOf(t, img) || last == 0 || pr.Bytes != last {
		t.Fatalf("pull result %+v, progress %d", pr, last)
	}
	back, err := tarball.ImageFromPath(out, nil)
	if err != nil {
		t.Fatal(err)
	}
	if digestOf(t, back) != digestOf(t, img) {
		t.Fatalf("pulled tarball holds %s, want %s", digestOf(t, back), digestOf(t, img))
	}
	// To stdout.
	var buf bytes.Buffer
	if _, err := c.Pull(ctx, ref, "-", &buf, regclient.PullOptions{}); err != nil {
		t.Fatal(err)
	}
	if buf.Len() < 4096 {
		t.Fatalf("tarball on stdout has %d bytes", buf.Len())
	}
}

// A push interrupted after some layers uploads only the rest when rerun.
func TestPushResumes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.as(t, "alice")
	ctx := context.Background()
	base := randomImage(t, 2048, 2)
	extra, err := random.Layer(2048, types.DockerLayer)
	if err != nil {
		t.Fatal(err)
	}
	full, err := mutate.AppendLayers(base, extra)
	if err != nil {
		t.Fatal(err)
	}
	// The first two layers got there (as with an interrupted push).
	src := openTarball(t, e.dir, base)
	if _, err := c.Push(ctx, src, mustRef(t, c, "app:partial"), regclient.PushOptions{}); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(e.dir, "full")
	os.Mkdir(dir, 0o755)
	src2 := openTarball(t, dir, full)
	var ev events
	res, err := c.Push(ctx, src2, mustRef(t, c, "app:partial"), regclient.PushOptions{Progress: ev.record})
	if err != nil {
		t.Fatal(err)
	}
	ed, _ := extra.Digest()
	if res.Sent != 1 || ev.final[ed] != regclient.LayerPushed || ev.count(regclient.LayerExists) != 2 {
		t.Fatalf("rerun sent %d layers: %v", res.Sent, ev.final)
	}
}

func TestPushIndexFromLayout(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.as(t, "alice")
	ctx := context.Background()
	dir, idx, imgs := twoPlatformLayout(t, e.dir)
	src, err := regclient.Open(dir, regclient.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !src.IsIndex() || digestOf(t, src) != digestOf(t, idx) {
		t.Fatalf("opened %s, index %v", src.Desc, src.IsIndex())
	}
	ref := mustRef(t, c, "multi:1")
	res, err := c.Push(ctx, src, ref, regclient.PushOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Layers != 4 || res.Ref.DigestStr() != digestOf(t, idx).String() {
		t.Fatalf("push result %+v", res)
	}
	// One platform as a tarball.
	out := filepath.Join(e.dir, "arm.tar")
	pr, err := c.Pull(ctx, ref, out, nil, regclient.PullOptions{Platform: &v1.Platform{OS: "linux", Architecture: "arm64"}})
	if err != nil {
		t.Fatal(err)
	}
	if pr.Digest != digestOf(t, imgs["arm64"]) || pr.Platform != "linux/arm64" {
		t.Fatalf("pull result %+v", pr)
	}
	// Without --platform a tarball gets this machine's architecture.
	if runtime.GOARCH == "amd64" || runtime.GOARCH == "arm64" {
		pr, err := c.Pull(ctx, ref, out, nil, regclient.PullOptions{})
		if err != nil || pr.Platform != "linux/"+runtime.GOARCH || pr.Digest != digestOf(t, imgs[runtime.GOARCH]) {
			t.Fatalf("default platform: %+v, %v", pr, err)
		}
	}
	// A platform it lacks.
	_, err = c.Pull(ctx, ref, out, nil, regclient.PullOptions{Platform: &v1.Platform{OS: "linux", Architecture: "s390x"}})
	if err == nil || !strings.Contains(err.Error(), "it has linux/amd64, linux/arm64") || !strings.Contains(err.Error(), "--platform") {
		t.Fatalf("missing platform: %v", err)
	}
	// The whole index as an OCI layout keeps both platforms.
	lay := filepath.Join(e.dir, "pulled-layout")
	if _, err := c.Pull(ctx, ref, lay, nil, regclient.PullOptions{Format: regclient.FormatOCI}); err != nil {
		t.Fatal(err)
	}
	lp, err := layout.FromPath(lay)
	if err != nil {
		t.Fatal(err)
	}
	ii, _ := lp.ImageIndex()
	im, _ := ii.IndexManifest()
	if len(im.Manifests) != 1 || im.Manifests[0].Digest != digestOf(t, idx) || im.Manifests[0].Annotations["org.opencontainers.image.ref.name"] != "1" {
		t.Fatalf("pulled layout index: %+v", im.Manifests)
	}
	// Pushing the pulled layout again is a no-op.
	src2, err := regclient.Open(lay, regclient.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err = c.Push(ctx, src2, ref, regclient.PushOptions{})
	if err != nil || res.Sent != 0 {
		t.Fatalf("re-push of the pulled layout: %+v, %v", res, err)
	}
	// Inspect reads both platforms.
	desc, err := c.Descriptor(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	ri, _ := desc.ImageIndex()
	sums, err := regclient.Images(ctx, ri)
	if err != nil || len(sums) != 2 || sums[0].Platform != "linux/amd64" || sums[1].Platform != "linux/arm64" || len(sums[1].Layers) != 2 || sums[1].Size == 0 {
		t.Fatalf("inspect: %+v, %v", sums, err)
	}
}

func TestPermissionsAndErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	alice := e.as(t, "alice")
	src := openTarball(t, e.dir, randomImage(t, 1024, 1))

	// The server's 403 when the client does not know the user's namespace
	// (pushing by full reference as another user is the same request).
	bob := e.as(t, "bob")
	_, err := bob.Push(ctx, src, mustRef(t, bob, e.srv.URL()[len("http://"):]+"/alice/app:1"), regclient.PushOptions{})
	var re *regclient.Error
	if !errors.As(err, &re) || re.HTTPStatus() != 403 || !strings.HasSuffix(err.Error(), "denied: the registry refuses pushes to alice/app (403 Forbidden)") {
		t.Fatalf("bob pushing to alice/: %v", err)
	}

	// Wrong password: 401.
	wrong := e.client(t, "alice", "nope")
	_, err = wrong.Push(ctx, src, mustRef(t, wrong, "app:1"), regclient.PushOptions{})
	if !errors.As(err, &re) || re.HTTPStatus() != 401 || !strings.Contains(err.Error(), "forge image login") {
		t.Fatalf("wrong password: %v", err)
	}
	if err := wrong.Login(ctx, "alice", "nope"); !errors.As(err, &re) || re.HTTPStatus() != 401 {
		t.Fatalf("Login with a wrong password: %v", err)
	}
	if err := wrong.Login(ctx, "alice", passwords["alice"]); err != nil {
		t.Fatalf("Login: %v", err)
	}

	// Unknown tag: 404.
	if _, err := alice.Push(ctx, src, mustRef(t, alice, "app:1"), regclient.PushOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err = alice.Pull(ctx, mustRef(t, alice, "app:nope"), filepath.Join(e.dir, "x.tar"), nil, regclient.PullOptions{})
	if !errors.As(err, &re) || re.HTTPStatus() != 404 || !strings.Contains(err.Error(), "not found") {
		t.Fatalf("unknown tag: %v", err)
	}
	if _, err := os.Stat(filepath.Join(e.dir, "x.tar")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a failed pull left a file")
	}
}

func TestListingsDeleteCopy(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	alice := e.as(t, "alice")
	img := randomImage(t, 1024, 2)
	src := openTarball(t, e.dir, img)
	for _, r := range []string{"app:1.0", "app:latest", "tool:1"} {
		if _, err := alice.Push(ctx, src, mustRef(t, alice, r), regclient.PushOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	repo, _ := alice.ParseRepository("app")
	tags, raw, err := alice.Tags(ctx, repo)
	if err != nil {
		t.Fatal(err)
	}
	if len(tags) != 2 || tags[0].Name != "1.0" || tags[1].Name != "latest" || tags[0].Digest != digestOf(t, img).String() || len(raw) != 2 {
		t.Fatalf("tags %+v", tags)
	}
	cat, err := alice.Catalog(ctx)
	if err != nil || !slices.Equal(cat, []string{"alice/app", "alice/tool"}) {
		t.Fatalf("catalog %v, %v", cat, err)
	}
	if _, _, err := alice.AdminCatalog(ctx); err == nil || !strings.Contains(err.Error(), "for admins") {
		t.Fatalf("admin catalog as alice: %v", err)
	}
	repos, rawRepos, err := e.as(t, "root").AdminCatalog(ctx)
	if err != nil || len(repos) != 2 || repos[0].Name != "alice/app" || len(rawRepos) != 2 {
		t.Fatalf("admin catalog: %+v, %v", repos, err)
	}
	var first map[string]any
	json.Unmarshal(rawRepos[0], &first)
	if first["namespace"] != "alice" {
		t.Errorf("raw entry lost a field: %v", first)
	}

	// Copy within the registry, then delete by tag: both tags of the digest go.
	dst := mustRef(t, alice, "copy:1")
	if d, err := alice.Copy(ctx, mustRef(t, alice, "app:1.0"), dst, regclient.CopyOptions{}); err != nil || d != digestOf(t, img) {
		t.Fatalf("copy: %s, %v", d, err)
	}
	plan, err := alice.PlanDelete(ctx, mustRef(t, alice, "app:latest"))
	if err != nil {
		t.Fatal(err)
	}
	if plan.Digest.DigestStr() != digestOf(t, img).String() || !slices.Equal(plan.Tags, []string{"1.0", "latest"}) {
		t.Fatalf("plan %+v", plan)
	}
	if err := alice.Delete(ctx, plan.Digest); err != nil {
		t.Fatal(err)
	}
	if _, _, err := alice.Tags(ctx, repo); err == nil {
		t.Fatal("tags of a repository whose only manifest was deleted")
	}
	if _, err := alice.Descriptor(ctx, dst); err != nil {
		t.Fatalf("the copy went with the original: %v", err)
	}
	// Bob may not delete alice's images; the client says so before asking.
	bob := e.as(t, "bob")
	if err := bob.CheckWrite(dst.Context(), "delete"); err == nil || !strings.Contains(err.Error(), "you can delete only in bob/...") {
		t.Fatalf("CheckWrite delete: %v", err)
	}
}

func TestOpenRejectsBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := writeTarball(t, dir, randomImage(t, 4096, 2))
	data, _ := os.ReadFile(good)
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o644)
		return p
	}
	tarOf := func(files map[string]string) []byte {
		var buf bytes.Buffer
		tw := tar.NewWriter(&buf)
		for n, c := range files {
			tw.WriteHeader(&tar.Header{Name: n, Mode: 0o644, Size: int64(len(c))})
			tw.Write([]byte(c))
		}
		tw.Close()
		return buf.Bytes()
	}
	for name, tc := range map[string]struct {
		path, want string
	}{
		"missing":     {filepath.Join(dir, "nope.tar"), "no such file"},
		"not a tar":   {write("text.tar", []byte("hello, this is not a tarball at all\n")), "not a tar archive"},
		"truncated":   {write("cut.tar", data[:len(data)/2]), "truncated or corrupt"},
		"no manifest": {write("plain.tar", tarOf(map[string]string{"a.txt": "hello"})), "no manifest.json"},
		"oci archive": {write("oci.tar", tarOf(map[string]string{"index.json": "{}", "oci-layout": "{}"})), "OCI image archive"},
		"two images":  {write("two.tar", tarOf(map[string]string{"manifest.json": `[{"Config":"c","RepoTags":["a:1"]},{"Config":"d","RepoTags":["b:1"]}]`})), "holds 2 images (a:1, b:1)"},
		"bad layout":  {filepath.Join(dir), "not an OCI image layout"},
	} {
		_, err := regclient.Open(tc.path, regclient.OpenOptions{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", name, err, tc.want)
		}
	}
	// A layout with a blob cut short.
	lay, _, _ := twoPlatformLayout(t, t.TempDir())
	var victim string
	filepath.Walk(filepath.Join(lay, "blobs"), func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() && fi.Size() > 1000 {
			victim = p
		}
		return nil
	})
	os.Truncate(victim, 10)
	if _, err := regclient.Open(lay, regclient.OpenOptions{}); err == nil || !strings.Contains(err.Error(), "corrupt") {
		t.Errorf("truncated layout blob: %v", err)
	}
	// stdin.
	src, err := regclient.Open("-", regclient.OpenOptions{Stdin: bytes.NewReader(data)})
	if err != nil {
		t.Fatal(err)
	}
	src.Close()
	if _, err := regclient.Open("-", regclient.OpenOptions{Stdin: strings.NewReader("nope")}); err == nil || !strings.Contains(err.Error(), "stdin") {
		t.Errorf("junk on stdin: %v", err)
	}
}

// A docker tarball with uncompressed layers (as `docker save` writes them)
// is compressed on the way, as crane does.
func TestUncompressedTarball(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	layer, err := random.Layer(4096, types.DockerLayer)
	if err != nil {
		t.Fatal(err)
	}
	rc, _ := layer.Uncompressed()
	raw, _ := io.ReadAll(rc)
	diffID, _ := layer.DiffID()
	cfg, _ := json.Marshal(map[string]any{"architecture": "amd64", "os": "linux", "rootfs": map[string]any{"type": "layers", "diff_ids": []string{diffID.String()}}})
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, f := range []struct {
		name string
		data []byte
	}{
		{"manifest.json", []byte(`[{"Config":"config.json","RepoTags":["x:1"],"Layers":["l1/layer.tar"]}]`)},
		{"config.json", cfg},
		{"l1/layer.tar", raw},
	} {
		tw.WriteHeader(&tar.Header{Name: f.name, Mode: 0o644, Size: int64(len(f.data))})
		tw.Write(f.data)
	}
	tw.Close()
	p := filepath.Join(e.dir, "docker.tar")
	os.WriteFile(p, buf.Bytes(), 0o644)
	src, err := regclient.Open(p, regclient.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	c := e.as(t, "alice")
	res, err := c.Push(context.Background(), src, mustRef(t, c, "plain:1"), regclient.PushOptions{})
	if err != nil || res.Sent != 1 {
		t.Fatalf("push: %+v, %v", res, err)
	}
	desc, err := c.Descriptor(context.Background(), mustRef(t, c, "plain:1"))
	if err != nil {
		t.Fatal(err)
	}
	img, _ := desc.Image()
	cf, _ := img.ConfigFile()
	if cf.RootFS.DiffIDs[0] != diffID {
		t.Fatalf("diff id %s, want %s", cf.RootFS.DiffIDs[0], diffID)
	}
}

// The digest cache answers for an unchanged tarball and never for a
// changed one.
func TestDigestCache(t *testing.T) {
	t.Parallel()
	dir, cache := t.TempDir(), t.TempDir()
	img := randomImage(t, 4096, 2)
	path := writeTarball(t, dir, img)
	open := func() v1.Image {
		t.Helper()
		src, err := regclient.Open(path, regclient.OpenOptions{DigestCache: cache})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { src.Close() })
		return src.Image()
	}
	if d := digestOf(t, open()); d != digestOf(t, img) {
		t.Fatalf("first open: %s", d)
	}
	files, _ := filepath.Glob(filepath.Join(cache, "*.json"))
	if len(files) != 1 {
		t.Fatalf("cache files %v", files)
	}
	// Poison the remembered digests: an unchanged file takes them as they
	// are, which shows the cache is read.
	data, _ := os.ReadFile(files[0])
	ls, _ := img.Layers()
	d0, _ := ls[0].Digest()
	fake := "sha256:" + strings.Repeat("0", 64)
	os.WriteFile(files[0], bytes.ReplaceAll(data, []byte(d0.String()), []byte(fake)), 0o600)
	got, _ := open().Layers()
	if g, _ := got[0].Digest(); g.String() != fake {
		t.Fatalf("an unchanged tarball was hashed again (%s)", g)
	}
	// Rewriting the file (same size, same content even) changes its
	// identity: hashed again.
	b, _ := os.ReadFile(path)
	os.WriteFile(path, b, 0o644)
	got, _ = open().Layers()
	if g, _ := got[0].Digest(); g != d0 {
		t.Fatalf("a rewritten tarball kept a remembered digest: %s", g)
	}
}

// A push interrupted (Ctrl-C) after its first layer leaves that layer in
// the registry; run again, it sends only the others.
func TestInterruptedPush(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.as(t, "alice")
	img := randomImage(t, 64<<10, 3)
	src := openTarball(t, e.dir, img)
	ref := mustRef(t, c, "app:1")
	ctx, cancel := context.WithCancel(context.Background())
	var once sync.Once
	_, err := c.Push(ctx, src, ref, regclient.PushOptions{Jobs: 1, Progress: func(ev regclient.LayerEvent) {
		if ev.State == regclient.LayerPushed {
			once.Do(cancel)
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted push: %v", err)
	}
	res, err := c.Push(context.Background(), src, ref, regclient.PushOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Sent != 2 {
		t.Fatalf("the rerun sent %d layers, want 2", res.Sent)
	}
}

// A tarball's layers are hashed as the push reaches them, not all before
// the first upload: with one job, the first layer is sent while the
// others are still unread (crane overlaps hashing and uploading alike).
// The digests are remembered once all are known, so the re-push is one
// HEAD without hashing.
func TestPushHashesLayersAsItGoes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.as(t, "alice")
	img := randomImage(t, 64<<10, 3)
	path := writeTarball(t, e.dir, img)
	cache := t.TempDir()
	src, err := regclient.Open(path, regclient.OpenOptions{DigestCache: cache})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if n := src.HashedLayers(); n != 0 {
		t.Fatalf("Open hashed %d layers, want 0", n)
	}
	hashedAtFirst := -1
	var once sync.Once
	ref := mustRef(t, c, "lazy:1")
	res, err := c.Push(context.Background(), src, ref, regclient.PushOptions{Jobs: 1, Progress: func(ev regclient.LayerEvent) {
		if ev.State == regclient.LayerPushed {
			once.Do(func() { hashedAtFirst = src.HashedLayers() })
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if hashedAtFirst != 1 {
		t.Fatalf("%d layers hashed when the first was sent, want 1", hashedAtFirst)
	}
	if res.Ref.DigestStr() != digestOf(t, img).String() || res.Sent != 3 {
		t.Fatalf("push result %+v, want %s and 3 sent", res, digestOf(t, img))
	}
	again, err := regclient.Open(path, regclient.OpenOptions{DigestCache: cache})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if n := again.HashedLayers(); n != 3 {
		t.Fatalf("the digest cache knew %d layers after the push, want 3", n)
	}
	res, err = c.Push(context.Background(), again, ref, regclient.PushOptions{})
	if err != nil || res.Sent != 0 || res.Ref.DigestStr() != digestOf(t, img).String() {
		t.Fatalf("re-push: %+v, %v", res, err)
	}
}

// A pull onto a full local disk names the local file and the cause, not
// the registry: /dev/full answers every write with ENOSPC.
func TestPullFullDiskNamesLocalFile(t *testing.T) {
	t.Parallel()
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Fatalf("this test needs Linux's /dev/full: %v", err)
	}
	defer full.Close()
	e := newEnv(t)
	c := e.as(t, "alice")
	ctx := context.Background()
	img := randomImage(t, 4096, 2)
	src := openTarball(t, e.dir, img)
	ref := mustRef(t, c, "app:1")
	if _, err := c.Push(ctx, src, ref, regclient.PushOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err = c.Pull(ctx, ref, "-", full, regclient.PullOptions{})
	if err == nil || !strings.Contains(err.Error(), "to /dev/full: no space left on device") || strings.Contains(err.Error(), "reach") {
		t.Fatalf("pull onto a full disk: %v", err)
	}
}

// getCounter counts the GETs it carries whose path holds part
// ("/manifests/", "/blobs/").
type getCounter struct {
	inner http.RoundTripper
	part  string
	n     atomic.Int64
}

func (g *getCounter) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodGet && strings.Contains(req.URL.Path, g.part) {
		g.n.Add(1)
	}
	return g.inner.RoundTrip(req)
}

// Sizes reads each distinct digest once, however many tags name it and
// however many requests run at once, and remembers it on disk: the next
// listing reads no manifest at all.
func TestSizesReadEachDigestOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	one, two := randomImage(t, 512, 1), randomImage(t, 512, 2)
	pusher := e.as(t, "alice")
	for i := range 20 {
		img := one
		if i%10 == 0 {
			img = two
		}
		if err := remote.Write(mustRef(t, pusher, fmt.Sprintf("app:%d", i)), img, remote.WithAuth(&authn.Basic{Username: "alice", Password: passwords["alice"]}), remote.WithTransport(e.transport)); err != nil {
			t.Fatal(err)
		}
	}
	count := &getCounter{inner: e.transport, part: "/manifests/"}
	cache := t.TempDir()
	c, err := regclient.New(regclient.Options{RegistryURL: e.srv.URL(), Username: "alice", Password: passwords["alice"], Transport: count, Service: true, CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	repo := mustRef(t, c, "app:1").Context()
	for round, want := range []int64{2, 0} {
		count.n.Store(0)
		tags, _, err := c.Tags(ctx, repo)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Sizes(ctx, repo, tags); err != nil {
			t.Fatal(err)
		}
		if n := count.n.Load(); n != want {
			t.Errorf("round %d: %d manifest GETs for 20 tags of 2 digests, want %d", round, n, want)
		}
		oneSize, _ := one.Manifest()
		for _, tg := range tags {
			if tg.Name == "1" && tg.ImageSize != oneSize.Config.Size+oneSize.Layers[0].Size {
				t.Errorf("round %d: app:1 has size %d", round, tg.ImageSize)
			}
			if tg.ImageSize == 0 {
				t.Errorf("round %d: tag %s has no size", round, tg.Name)
			}
		}
	}
}

// Ctrl-C while stdin is being spooled stops at once, even while the writer
// sends nothing more, and leaves no spool behind.
func TestStdinSpoolCancelled(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	pr, pw := io.Pipe()
	defer pw.Close()
	go pw.Write(make([]byte, 64<<10)) // then nothing: the writer stalls
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		// Cancel once the spool holds the first bytes.
		for {
			if m, _ := filepath.Glob(filepath.Join(tmp, "forge-push-*.tar")); len(m) == 1 {
				if fi, err := os.Stat(m[0]); err == nil && fi.Size() > 0 {
					cancel()
					return
				}
			}
			time.Sleep(time.Millisecond)
		}
	}()
	_, err := regclient.Open("-", regclient.OpenOptions{Stdin: pr, Context: ctx})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Open after Ctrl-C: %v", err)
	}
	if m, _ := filepath.Glob(filepath.Join(tmp, "forge-push-*")); len(m) != 0 {
		t.Fatalf("the spool is left behind: %v", m)
	}
}

// A push stopped in the middle of a layer (Ctrl-C) resumes that layer on
// the next run from where the registry's Range says its bytes end,
// instead of from byte 0, and the image is whole.
func TestPushResumesInterruptedLayer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cache := t.TempDir()
	c, err := regclient.New(regclient.Options{RegistryURL: e.srv.URL(), Username: "alice", Password: passwords["alice"], Transport: e.transport, Service: true, CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	img := randomImage(t, 8<<20, 1)
	src := openTarball(t, e.dir, img)
	ref := mustRef(t, c, "big:1")
	ctx, cancel := context.WithCancel(context.Background())
	var size int64
	_, err = c.Push(ctx, src, ref, regclient.PushOptions{Jobs: 1, Progress: func(ev regclient.LayerEvent) {
		if ev.State == regclient.LayerUploading && ev.Sent >= ev.Size/2 {
			size = ev.Size
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("push stopped midway: %v", err)
	}
	waitForUploadBytes(t, cache)
	var resumedFrom int64 = -1
	res, err := c.Push(context.Background(), src, ref, regclient.PushOptions{Progress: func(ev regclient.LayerEvent) {
		if ev.State == regclient.LayerUploading && resumedFrom < 0 {
			resumedFrom = ev.Sent
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	// The rest only: none when every byte had arrived before the push
	// stopped (TestPushCompletesAnArrivedLayer pins that case).
	if res.Sent != 1 || res.Bytes < 0 || res.Bytes >= size {
		t.Fatalf("the second push sent %d layers, %d bytes of the %d-byte layer (resumed at %d): want the rest only", res.Sent, res.Bytes, size, resumedFrom)
	}
	got, err := remote.Image(ref, remote.WithAuth(&authn.Basic{Username: "alice", Password: passwords["alice"]}), remote.WithTransport(e.transport))
	if err != nil {
		t.Fatal(err)
	}
	layers, _ := got.Layers()
	want, _ := img.Layers()
	gd, _ := layers[0].Digest()
	wd, _ := want[0].Digest()
	rc, err := layers[0].Compressed()
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, rc) // verified against its digest as read
	rc.Close()
	if err != nil || gd != wd || n != size {
		t.Fatalf("the resumed layer: %d bytes, digest %s (want %s): %v", n, gd, wd, err)
	}
}

// TestPushCompletesAnArrivedLayer: a push stopped after the layer's last
// byte reached the registry but before the PUT that completes the upload
// (Ctrl-C at that moment, or a fast loopback taking in all that was in
// flight) completes it on the next push, sending no byte again.
func TestPushCompletesAnArrivedLayer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cache := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	stopAtPut := &stopAtCompletion{inner: e.transport, cancel: cancel}
	c, err := regclient.New(regclient.Options{RegistryURL: e.srv.URL(), Username: "alice", Password: passwords["alice"], Transport: stopAtPut, Service: true, CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	img := randomImage(t, 1<<20, 1)
	src := openTarball(t, e.dir, img)
	ref := mustRef(t, c, "arrived:1")
	if _, err := c.Push(ctx, src, ref, regclient.PushOptions{Jobs: 1, Progress: func(regclient.LayerEvent) {}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("push stopped at the completing PUT: %v", err)
	}
	res, err := c.Push(context.Background(), src, ref, regclient.PushOptions{Progress: func(regclient.LayerEvent) {}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Sent != 1 || res.Bytes != 0 {
		t.Fatalf("the second push sent %d layers, %d bytes: want the layer completed with no byte sent again", res.Sent, res.Bytes)
	}
	got, err := remote.Image(ref, remote.WithAuth(&authn.Basic{Username: "alice", Password: passwords["alice"]}), remote.WithTransport(e.transport))
	if err != nil {
		t.Fatal(err)
	}
	gl, _ := got.Layers()
	wl, _ := img.Layers()
	gd, _ := gl[0].Digest()
	wd, _ := wl[0].Digest()
	if gd != wd {
		t.Fatalf("the completed layer is %s, want %s", gd, wd)
	}
}

// stopAtCompletion stops the push (cancels its context) at the first PUT
// that would complete a blob upload, without sending it.
type stopAtCompletion struct {
	inner   http.RoundTripper
	cancel  context.CancelFunc
	stopped atomic.Bool
}

func (s *stopAtCompletion) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodPut && strings.Contains(req.URL.Path, "/blobs/uploads/") && s.stopped.CompareAndSwap(false, true) {
		s.cancel()
		return nil, context.Canceled
	}
	return s.inner.RoundTrip(req)
}

// waitForUploadBytes waits until the registry has taken in the bytes of
// the upload the push left in cache (the server reads the broken PATCH on
// its own time, and may be slower than the next push).
func waitForUploadBytes(t *testing.T, cache string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(cache, "uploads", "*.json"))
	if len(files) != 1 {
		t.Fatalf("the stopped push left %d uploads to resume, want 1", len(files))
	}
	data, _ := os.ReadFile(files[0])
	var e struct{ Location string }
	json.Unmarshal(data, &e)
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		req, _ := http.NewRequest(http.MethodGet, e.Location, nil)
		req.SetBasicAuth("alice", passwords["alice"])
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Range") != "0-0" {
			return
		}
	}
	t.Fatal("the registry holds no byte of the stopped upload")
}

// requestCounter counts a listing's requests by kind and holds each HEAD
// until a second is in flight (or 10 s pass), so maxHeads > 1 shows the
// HEADs were sent concurrently.
type requestCounter struct {
	inner                http.RoundTripper
	tokens, pings, heads atomic.Int64
	inFlight, maxHeads   atomic.Int64
	secondHead           chan struct{}
	secondOnce           sync.Once
}

func (c *requestCounter) RoundTrip(req *http.Request) (*http.Response, error) {
	switch {
	case req.URL.Path == "/token":
		c.tokens.Add(1)
	case req.URL.Path == "/v2/":
		c.pings.Add(1)
	case req.Method == http.MethodHead:
		c.heads.Add(1)
		n := c.inFlight.Add(1)
		defer c.inFlight.Add(-1)
		for m := c.maxHeads.Load(); n > m && !c.maxHeads.CompareAndSwap(m, n); m = c.maxHeads.Load() {
		}
		if n > 1 {
			c.secondOnce.Do(func() { close(c.secondHead) })
		}
		select {
		case <-c.secondHead:
		case <-time.After(10 * time.Second):
		}
	}
	return c.inner.RoundTrip(req)
}

// A listing through the registry protocol (tags/list names no digests)
// pings the registry and fetches its token once for the list and every
// HEAD, and sends the HEADs concurrently; a failed listing does not fail
// the client's next one.
func TestTagsProtocolOneTokenConcurrentHeads(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	img := randomImage(t, 512, 1)
	for i := range 12 {
		if err := remote.Write(mustRef(t, e.as(t, "alice"), fmt.Sprintf("app:%d", i)), img, remote.WithAuth(&authn.Basic{Username: "alice", Password: passwords["alice"]}), remote.WithTransport(e.transport)); err != nil {
			t.Fatal(err)
		}
	}
	count := &requestCounter{inner: e.transport, secondHead: make(chan struct{})}
	c, err := regclient.New(regclient.Options{RegistryURL: e.srv.URL(), Username: "alice", Password: passwords["alice"], Transport: count, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	repo := mustRef(t, c, "alice/app:1").Context()
	// A listing cancelled before it starts fails, and leaves nothing
	// behind that fails the next (the client's shared state is dropped).
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := c.Tags(cancelled, repo); err == nil {
		t.Fatal("a cancelled listing succeeded")
	}
	count.pings.Store(0)
	tags, _, err := c.Tags(ctx, repo)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Sizes(ctx, repo, tags); err != nil {
		t.Fatal(err)
	}
	if len(tags) != 12 || tags[0].ImageSize == 0 {
		t.Fatalf("tags %+v", tags)
	}
	if n := count.tokens.Load(); n != 1 {
		t.Errorf("%d token requests, want 1", n)
	}
	if n := count.pings.Load(); n != 1 {
		t.Errorf("%d pings of /v2/, want 1", n)
	}
	if n := count.heads.Load(); n != 12 {
		t.Errorf("%d HEADs for 12 tags, want 12", n)
	}
	if n := count.maxHeads.Load(); n < 2 {
		t.Errorf("at most %d HEAD in flight: sent one after another", n)
	}
}
