package registry_test

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The registry protocol at the level of requests, one test per rule of the
// OCI distribution specification the reference registry once broke (the
// conformance suite in .ci/run checks the whole specification).

// reply is a response read in full.
type reply struct {
	status int
	header http.Header
	body   []byte
}

// call sends one request to the registry as user, with basic credentials.
func (f *fixture) call(t *testing.T, user, method, path string, header map[string]string, body []byte) reply {
	t.Helper()
	u := path
	if !strings.HasPrefix(path, "http") {
		u = f.url + path
	}
	req, err := http.NewRequest(method, u, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body == nil {
		req.Body, req.ContentLength = http.NoBody, 0
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	req.SetBasicAuth(user, testUsers[user].password)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return reply{resp.StatusCode, resp.Header, data}
}

func (r reply) want(t *testing.T, what string, status int) reply {
	t.Helper()
	if r.status != status {
		t.Fatalf("%s: status %d, want %d; body %s", what, r.status, status, r.body)
	}
	return r
}

func randomBytes(t *testing.T, n int) []byte {
	t.Helper()
	b := make([]byte, n)
	rand.Read(b)
	return b
}

func sha256Of(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

func sha512Of(b []byte) string {
	s := sha512.Sum512(b)
	return "sha512:" + hex.EncodeToString(s[:])
}

// pushBlob uploads a blob in one POST and returns its Location.
func (f *fixture) pushBlob(t *testing.T, repo string, blob []byte, digest string) string {
	t.Helper()
	r := f.call(t, "alice", "POST", "/v2/"+repo+"/blobs/uploads/?digest="+digest, map[string]string{"Content-Type": "application/octet-stream"}, blob).
		want(t, "monolithic POST", http.StatusCreated)
	return r.header.Get("Location")
}

// Every 201 of a push names where the new content is (a MUST).
func TestCreatedCarriesLocation(t *testing.T) {
	f := newFixture(t, "")
	blob := randomBytes(t, 700)
	d := sha256Of(blob)

	loc := f.pushBlob(t, "alice/app", blob, d)
	if loc == "" {
		t.Fatal("a monolithic POST's 201 has no Location")
	}
	if got := f.call(t, "alice", "GET", loc, nil, nil).want(t, "GET Location", 200); !bytes.Equal(got.body, blob) {
		t.Fatal("the Location of a monolithic POST does not serve the blob")
	}

	started := f.call(t, "alice", "POST", "/v2/alice/app/blobs/uploads/", nil, nil).want(t, "POST", http.StatusAccepted)
	blob2 := randomBytes(t, 300)
	put := f.call(t, "alice", "PUT", started.header.Get("Location")+"?digest="+sha256Of(blob2), nil, blob2).want(t, "PUT", http.StatusCreated)
	if put.header.Get("Location") != "/v2/alice/app/blobs/"+sha256Of(blob2) || put.header.Get("Docker-Content-Digest") != sha256Of(blob2) {
		t.Fatalf("a blob PUT's 201 has Location %q and digest %q", put.header.Get("Location"), put.header.Get("Docker-Content-Digest"))
	}

	manifest := fmt.Sprintf(`{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":%q,"size":700},"layers":[]}`, d)
	m := f.call(t, "alice", "PUT", "/v2/alice/app/manifests/v1", map[string]string{"Content-Type": "application/vnd.oci.image.manifest.v1+json"}, []byte(manifest)).
		want(t, "manifest PUT", http.StatusCreated)
	if m.header.Get("Location") == "" {
		t.Fatal("a manifest PUT's 201 has no Location")
	}
	got := f.call(t, "alice", "GET", m.header.Get("Location"), nil, nil).want(t, "GET manifest Location", 200)
	if string(got.body) != manifest || got.header.Get("Content-Type") != "application/vnd.oci.image.manifest.v1+json" {
		t.Fatalf("the manifest's Location serves %q as %q", got.body, got.header.Get("Content-Type"))
	}
}

// A chunked upload can be resumed: GET on the upload says how far it got
// (204 with Location and Range), and a chunk that does not continue it is
// 416 and leaves it intact.
func TestChunkedUploadResumes(t *testing.T) {
	f := newFixture(t, "")
	blob := randomBytes(t, 3000)
	loc := f.call(t, "alice", "POST", "/v2/alice/app/blobs/uploads/", nil, nil).want(t, "POST", http.StatusAccepted).header.Get("Location")
	chunk := func(start, end int) map[string]string {
		return map[string]string{"Content-Range": fmt.Sprintf("%d-%d", start, end), "Content-Type": "application/octet-stream"}
	}
	loc = f.call(t, "alice", "PATCH", loc, chunk(0, 999), blob[:1000]).want(t, "first chunk", http.StatusAccepted).header.Get("Location")

	st := f.call(t, "alice", "GET", loc, nil, nil).want(t, "GET upload", http.StatusNoContent)
	if st.header.Get("Range") != "0-999" || st.header.Get("Location") == "" {
		t.Fatalf("GET upload: Range %q, Location %q; want 0-999 and the upload's URL", st.header.Get("Range"), st.header.Get("Location"))
	}
	// The 416 carries its error as a body of the length it declares (a
	// declared 0 left the JSON on the connection for the next request).
	if r := f.call(t, "alice", "PATCH", loc, chunk(2000, 2999), blob[2000:]).want(t, "out-of-order chunk", http.StatusRequestedRangeNotSatisfiable); !bytes.Contains(r.body, []byte("RANGE_INVALID")) {
		t.Fatalf("the 416's body is %q, want the registry's error", r.body)
	}
	f.call(t, "alice", "PUT", loc+"?digest="+sha256Of(blob), chunk(2000, 2999), blob[2000:]).want(t, "out-of-order last chunk", http.StatusRequestedRangeNotSatisfiable)
	if r := f.call(t, "alice", "GET", loc, nil, nil).want(t, "GET upload after 416", http.StatusNoContent); r.header.Get("Range") != "0-999" {
		t.Fatalf("after a refused chunk the upload holds %q, want 0-999", r.header.Get("Range"))
	}
	loc = f.call(t, "alice", "PATCH", loc, chunk(1000, 1999), blob[1000:2000]).want(t, "second chunk", http.StatusAccepted).header.Get("Location")
	f.call(t, "alice", "PUT", loc+"?digest="+sha256Of(blob), chunk(2000, 2999), blob[2000:]).want(t, "last chunk", http.StatusCreated)
	if got := f.call(t, "alice", "GET", "/v2/alice/app/blobs/"+sha256Of(blob), nil, nil).want(t, "GET blob", 200); !bytes.Equal(got.body, blob) {
		t.Fatal("the chunked blob came back different")
	}
	f.call(t, "alice", "GET", loc, nil, nil).want(t, "GET completed upload", http.StatusNotFound)
}

// A wrong digest is refused and the upload's space freed.
func TestWrongDigestRefused(t *testing.T) {
	f := newFixture(t, "")
	blob := randomBytes(t, 100)
	f.call(t, "alice", "POST", "/v2/alice/app/blobs/uploads/?digest="+sha256Of([]byte("other")), nil, blob).want(t, "POST wrong digest", http.StatusBadRequest)
	loc := f.call(t, "alice", "POST", "/v2/alice/app/blobs/uploads/", nil, nil).want(t, "POST", http.StatusAccepted).header.Get("Location")
	f.call(t, "alice", "PATCH", loc, nil, blob).want(t, "PATCH", http.StatusAccepted)
	f.call(t, "alice", "PUT", loc+"?digest="+sha512Of([]byte("other")), nil, nil).want(t, "PUT wrong sha512", http.StatusBadRequest)
	if n := f.reg.UploadsInProgress(); n != 0 {
		t.Fatalf("%d uploads kept after wrong digests", n)
	}
	f.call(t, "alice", "GET", "/v2/alice/app/blobs/"+sha256Of([]byte("other")), nil, nil).want(t, "GET", http.StatusNotFound)
}

// sha512 digests work for blobs and manifests from push to delete, and a
// tag given with ?tag= keeps the manifest's sha512 digest.
func TestSHA512(t *testing.T) {
	f := newFixture(t, "")
	blob := randomBytes(t, 512)
	d := sha512Of(blob)
	f.pushBlob(t, "alice/app", blob, d)
	if h := f.call(t, "alice", "HEAD", "/v2/alice/app/blobs/"+d, nil, nil).want(t, "HEAD", 200); h.header.Get("Content-Length") != "512" || h.header.Get("Docker-Content-Digest") != d {
		t.Fatalf("HEAD: length %q digest %q", h.header.Get("Content-Length"), h.header.Get("Docker-Content-Digest"))
	}
	if g := f.call(t, "alice", "GET", "/v2/alice/app/blobs/"+d, nil, nil).want(t, "GET", 200); !bytes.Equal(g.body, blob) {
		t.Fatal("the sha512 blob came back different")
	}

	manifest := []byte(fmt.Sprintf(`{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":%q,"size":512},"layers":[]}`, d))
	md := sha512Of(manifest)
	put := f.call(t, "alice", "PUT", "/v2/alice/app/manifests/"+md+"?tag=v512", map[string]string{"Content-Type": "application/vnd.oci.image.manifest.v1+json"}, manifest).
		want(t, "PUT manifest by sha512", http.StatusCreated)
	if put.header.Get("Docker-Content-Digest") != md || put.header.Get("OCI-Tag") != "v512" {
		t.Fatalf("PUT: digest %q, OCI-Tag %q", put.header.Get("Docker-Content-Digest"), put.header.Get("OCI-Tag"))
	}
	if g := f.call(t, "alice", "GET", "/v2/alice/app/manifests/v512", nil, nil).want(t, "GET by tag", 200); g.header.Get("Docker-Content-Digest") != md {
		t.Fatalf("the tag names %q, want %s", g.header.Get("Docker-Content-Digest"), md)
	}
	f.call(t, "alice", "DELETE", "/v2/alice/app/manifests/"+md, nil, nil).want(t, "DELETE manifest", http.StatusAccepted)
	f.call(t, "alice", "GET", "/v2/alice/app/manifests/v512", nil, nil).want(t, "GET deleted tag", http.StatusNotFound)
	f.call(t, "alice", "DELETE", "/v2/alice/app/blobs/"+d, nil, nil).want(t, "DELETE blob", http.StatusAccepted)
	f.call(t, "alice", "HEAD", "/v2/alice/app/blobs/"+d, nil, nil).want(t, "HEAD deleted", http.StatusNotFound)
}

// The referrers API: 200 with an empty index where nothing refers to the
// digest, OCI-Subject on a push with a subject, and the artifactType
// filter applied and announced.
func TestReferrers(t *testing.T) {
	f := newFixture(t, "")
	const index = "application/vnd.oci.image.index.v1+json"
	subject := sha256Of([]byte("an image"))
	var list struct {
		MediaType string `json:"mediaType"`
		Manifests []struct {
			Digest       string            `json:"digest"`
			ArtifactType string            `json:"artifactType"`
			Annotations  map[string]string `json:"annotations"`
		} `json:"manifests"`
	}
	empty := f.call(t, "alice", "GET", "/v2/alice/nothing-yet/referrers/"+subject, nil, nil).want(t, "referrers of an empty repository", 200)
	if err := json.Unmarshal(empty.body, &list); err != nil || empty.header.Get("Content-Type") != index || list.MediaType != index || len(list.Manifests) != 0 {
		t.Fatalf("empty referrers: %s as %q (%v)", empty.body, empty.header.Get("Content-Type"), err)
	}

	cfg := []byte("{}")
	f.pushBlob(t, "alice/app", cfg, sha256Of(cfg))
	artifact := func(typ, note string) []byte {
		return []byte(fmt.Sprintf(`{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","artifactType":%q,"config":{"mediaType":"application/vnd.oci.empty.v1+json","digest":%q,"size":2},"layers":[],"subject":{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":%q,"size":10},"annotations":{"note":%q}}`, typ, sha256Of(cfg), subject, note))
	}
	for _, a := range [][]byte{artifact("application/x-sbom", "one"), artifact("application/x-signature", "two")} {
		put := f.call(t, "alice", "PUT", "/v2/alice/app/manifests/"+sha256Of(a), map[string]string{"Content-Type": "application/vnd.oci.image.manifest.v1+json"}, a).want(t, "PUT artifact", http.StatusCreated)
		if put.header.Get("OCI-Subject") != subject {
			t.Fatalf("OCI-Subject %q, want %s", put.header.Get("OCI-Subject"), subject)
		}
	}
	all := f.call(t, "alice", "GET", "/v2/alice/app/referrers/"+subject, nil, nil).want(t, "referrers", 200)
	json.Unmarshal(all.body, &list)
	if len(list.Manifests) != 2 {
		t.Fatalf("referrers: %s", all.body)
	}
	sbom := f.call(t, "alice", "GET", "/v2/alice/app/referrers/"+subject+"?artifactType="+url.QueryEscape("application/x-sbom"), nil, nil).want(t, "filtered referrers", 200)
	list.Manifests = nil
	json.Unmarshal(sbom.body, &list)
	if sbom.header.Get("OCI-Filters-Applied") != "artifactType" || len(list.Manifests) != 1 || list.Manifests[0].ArtifactType != "application/x-sbom" || list.Manifests[0].Annotations["note"] != "one" {
		t.Fatalf("filtered referrers: %s, OCI-Filters-Applied %q", sbom.body, sbom.header.Get("OCI-Filters-Applied"))
	}
}

// Range requests on blobs: open-ended and suffix ranges, an end past the
// blob clamped, and impossible ranges 416.
func TestBlobRanges(t *testing.T) {
	f := newFixture(t, "")
	blob := randomBytes(t, 2048)
	d := sha256Of(blob)
	f.pushBlob(t, "alice/app", blob, d)
	for _, c := range []struct {
		rng          string
		status       int
		from, to     int
		contentRange string
	}{
		{"bytes=500-1499", 206, 500, 1500, "bytes 500-1499/2048"},
		{"bytes=500-", 206, 500, 2048, "bytes 500-2047/2048"},
		{"bytes=-500", 206, 1548, 2048, "bytes 1548-2047/2048"},
		{"bytes=2000-5000", 206, 2000, 2048, "bytes 2000-2047/2048"},
		{"bytes=500-0", 416, 0, 0, ""},
		{"bytes=5000-10000", 416, 0, 0, ""},
	} {
		r := f.call(t, "alice", "GET", "/v2/alice/app/blobs/"+d, map[string]string{"Range": c.rng}, nil).want(t, c.rng, c.status)
		if c.status == 206 && (!bytes.Equal(r.body, blob[c.from:c.to]) || r.header.Get("Content-Range") != c.contentRange) {
			t.Errorf("%s: %d bytes, Content-Range %q; want bytes %d-%d, %q", c.rng, len(r.body), r.header.Get("Content-Range"), c.from, c.to, c.contentRange)
		}
	}
}

// An abandoned upload is dropped after UploadTTL with its file, and one
// still in use is not.
func TestAbandonedUploadExpires(t *testing.T) {
	f := newFixture(t, t.TempDir())
	now := time.Now()
	f.reg.SetClock(func() time.Time { return now })
	abandoned := f.call(t, "alice", "POST", "/v2/alice/app/blobs/uploads/", nil, nil).want(t, "POST", http.StatusAccepted).header.Get("Location")
	f.call(t, "alice", "PATCH", abandoned, nil, randomBytes(t, 1<<20)).want(t, "PATCH", http.StatusAccepted)
	id := abandoned[strings.LastIndex(abandoned, "/")+1:]
	file := filepath.Join(f.reg.Dir(), "uploads", id)
	if fi, err := os.Stat(file); err != nil || fi.Size() != 1<<20 {
		t.Fatalf("the upload is not streamed to %s: %v", file, err)
	}

	now = now.Add(50 * time.Minute)
	busy := f.call(t, "alice", "POST", "/v2/alice/app/blobs/uploads/", nil, nil).want(t, "POST", http.StatusAccepted).header.Get("Location")
	now = now.Add(20 * time.Minute)
	f.reg.ExpireUploads()
	f.call(t, "alice", "GET", abandoned, nil, nil).want(t, "GET expired upload", http.StatusNotFound)
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Fatalf("the expired upload's file is still there: %v", err)
	}
	f.call(t, "alice", "GET", busy, nil, nil).want(t, "GET upload touched 20 minutes ago", http.StatusNoContent)
}

// Without --data, the registry's files live in a temporary directory that
// Close removes, uploads in progress included.
func TestCloseRemovesTemporaryStorage(t *testing.T) {
	f := newFixture(t, "")
	f.pushBlob(t, "alice/app", []byte("kept until Close"), sha256Of([]byte("kept until Close")))
	loc := f.call(t, "alice", "POST", "/v2/alice/app/blobs/uploads/", nil, nil).want(t, "POST", http.StatusAccepted).header.Get("Location")
	f.call(t, "alice", "PATCH", loc, nil, randomBytes(t, 1000)).want(t, "PATCH", http.StatusAccepted)
	dir := f.reg.Dir()
	if _, err := os.Stat(dir); err != nil {
		t.Fatal(err)
	}
	closeIdleClients()
	if err := f.srv.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("%s survives Close: %v", dir, err)
	}
}
