package registry_test

import (
	"bytes"
	"net/http"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-containerregistry/pkg/v1/remote"
)

// A write that fails on a full disk changes nothing: not what the registry
// shows, not what a restart loads; the client gets a 5xx naming the cause
// and never a path of the server's.
func TestFailedWritesChangeNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f := newFixture(t, dir)
	img := randomImage(t)
	if err := remote.Write(f.ref(t, "alice/ok:1"), img, as("alice")); err != nil {
		t.Fatal(err)
	}
	if err := remote.Write(f.ref(t, "alice/ok:2"), img, as("alice")); err != nil {
		t.Fatal(err)
	}
	manifest, _ := img.RawManifest()
	digest, _ := img.Digest()
	layers, _ := img.Layers()
	layer, _ := layers[0].Digest()
	mediaType, _ := img.MediaType()
	blob := randomBytes(t, 5000)

	f.reg.FailWrites(func(op, path string) error { return syscall.ENOSPC })
	failed := func(what string, r reply) {
		t.Helper()
		if r.status < 500 {
			t.Errorf("%s on a full disk: status %d, want 5xx; body %s", what, r.status, r.body)
		}
		if !strings.Contains(string(r.body), "no space left on device") {
			t.Errorf("%s on a full disk: the answer does not name the cause: %s", what, r.body)
		}
		if strings.Contains(string(r.body), dir) || strings.Contains(string(r.body), "/tmp") {
			t.Errorf("%s: the answer carries a server path: %s", what, r.body)
		}
	}
	failed("manifest PUT", f.call(t, "alice", "PUT", "/v2/alice/ok/manifests/3", map[string]string{"Content-Type": string(mediaType)}, manifest))
	failed("tag DELETE", f.call(t, "alice", "DELETE", "/v2/alice/ok/manifests/2", nil, nil))
	failed("manifest DELETE", f.call(t, "alice", "DELETE", "/v2/alice/ok/manifests/"+digest.String(), nil, nil))
	failed("blob DELETE", f.call(t, "alice", "DELETE", "/v2/alice/ok/blobs/"+layer.String(), nil, nil))
	failed("monolithic upload", f.call(t, "alice", "POST", "/v2/alice/ok/blobs/uploads/?digest="+sha256Of(blob), nil, blob))
	failed("mount", f.call(t, "alice", "POST", "/v2/alice/other/blobs/uploads/?mount="+layer.String()+"&from=alice/ok", nil, nil))
	if err := f.reg.Share("alice/ok", "bob"); err == nil || !strings.Contains(err.Error(), "no space left") {
		t.Errorf("share on a full disk: %v", err)
	}

	check := func(f *fixture, when string) {
		t.Helper()
		tags, err := remote.List(f.ref(t, "alice/ok").Context(), as("alice"))
		if err != nil || !slices.Equal(tags, []string{"1", "2"}) {
			t.Errorf("%s: tags %v (%v), want [1 2]", when, tags, err)
		}
		if _, err := remote.Image(f.ref(t, "alice/ok@"+digest.String()), as("alice")); err != nil {
			t.Errorf("%s: the manifest is gone: %v", when, err)
		}
		if !f.reg.HasBlob("alice/ok", layer.String()) || f.reg.HasBlob("alice/other", layer.String()) || f.reg.HasBlob("alice/ok", sha256Of(blob)) {
			t.Errorf("%s: blob links changed", when)
		}
		if f.reg.SharedWithUser("alice/ok", "bob") {
			t.Errorf("%s: the failed share took effect", when)
		}
	}
	check(f, "after the failures")

	// A chunk that cannot be stored is the server's failure, and the
	// upload stays as it was, to be retried.
	f.reg.FailWrites(nil)
	loc := f.call(t, "alice", "POST", "/v2/alice/chunks/blobs/uploads/", nil, nil).want(t, "POST", http.StatusAccepted).header.Get("Location")
	f.reg.FailWrites(func(op, path string) error { return syscall.ENOSPC })
	failed("chunk PATCH", f.call(t, "alice", "PATCH", loc, map[string]string{"Content-Type": "application/octet-stream"}, blob))
	f.reg.FailWrites(nil)
	f.call(t, "alice", "PATCH", loc, map[string]string{"Content-Type": "application/octet-stream"}, blob).want(t, "PATCH after the disk has room", http.StatusAccepted)
	r := f.call(t, "alice", "PUT", loc+"?digest="+sha256Of(blob), nil, nil).want(t, "PUT", http.StatusCreated)
	if got := f.call(t, "alice", "GET", r.header.Get("Location"), nil, nil); !bytes.Equal(got.body, blob) {
		t.Fatal("the retried upload does not hold the blob")
	}

	check(newFixture(t, dir), "after a restart")
}
