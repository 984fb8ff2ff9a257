package registry_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/forgehq/forge/refserver/registry"

	"github.com/google/go-containerregistry/pkg/v1/remote"
)

// Every error code goes out with one status, distribution's: each row is a
// request that earns the code, over HTTP.
func TestErrorCodeStatuses(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	img := randomImage(t)
	if err := remote.Write(f.ref(t, "alice/app:1"), img, as("alice")); err != nil {
		t.Fatal(err)
	}
	zero := "sha256:" + strings.Repeat("0", 64)
	ownManifest := func(extra string) []byte {
		return []byte(`{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"` + zero + `","size":2},"layers":[]` + extra + `}`)
	}
	oci := map[string]string{"Content-Type": "application/vnd.oci.image.manifest.v1+json"}
	cases := []struct {
		user, method, path string
		header             map[string]string
		body               []byte
		status             int
		code               string
	}{
		{"alice", "GET", "/v2/alice/app/blobs/" + zero, nil, nil, 404, "BLOB_UNKNOWN"},
		{"alice", "GET", "/v2/alice/app/blobs/uploads/nope", nil, nil, 404, "BLOB_UPLOAD_UNKNOWN"},
		{"alice", "GET", "/v2/alice/app/blobs/sha256:zz", nil, nil, 400, "DIGEST_INVALID"},
		{"alice", "PUT", "/v2/alice/app/manifests/2", oci, ownManifest(""), 400, "MANIFEST_BLOB_UNKNOWN"},
		{"alice", "PUT", "/v2/alice/app/manifests/2", oci, []byte("not json"), 400, "MANIFEST_INVALID"},
		{"alice", "PUT", "/v2/alice/app/manifests/2", oci, bytes.Repeat([]byte(" "), 4<<20+1), 400, "SIZE_INVALID"},
		{"alice", "GET", "/v2/alice/app/manifests/nope", nil, nil, 404, "MANIFEST_UNKNOWN"},
		{"alice", "GET", "/v2/alice/App/tags/list", nil, nil, 400, "NAME_INVALID"},
		{"alice", "GET", "/v2/alice/none/tags/list", nil, nil, 404, "NAME_UNKNOWN"},
		{"alice", "PUT", "/v2/alice/app/manifests/-bad", oci, ownManifest(""), 400, "TAG_INVALID"},
		{"", "GET", "/v2/alice/app/tags/list", nil, nil, 401, "UNAUTHORIZED"},
		{"alice", "GET", "/v2/bob/app/tags/list", nil, nil, 403, "DENIED"},
		{"alice", "POST", "/v2/alice/app/tags/list", nil, nil, 405, "UNSUPPORTED"},
		{"alice", "GET", "/v2/_catalog?n=x", nil, nil, 400, "PAGINATION_NUMBER_INVALID"},
		// Paths outside the protocol, for anyone: nothing there to deny.
		{"alice", "GET", "/v2/alice/small/bob", nil, nil, 404, "NOT_FOUND"},
		{"alice", "GET", "/v2/alice/app/manifests/", nil, nil, 404, "NOT_FOUND"},
		{"", "GET", "/v2/alice/app/blobs/", nil, nil, 404, "NOT_FOUND"},
	}
	for _, c := range cases {
		r := f.call(t, c.user, c.method, c.path, c.header, c.body)
		var e struct {
			Errors []struct{ Code string } `json:"errors"`
		}
		json.Unmarshal(r.body, &e)
		if r.status != c.status || len(e.Errors) != 1 || e.Errors[0].Code != c.code {
			t.Errorf("%s %s: %d %s, want %d %s", c.method, c.path, r.status, r.body, c.status, c.code)
		}
	}
	// The code for an upload's chunk out of place (RANGE_INVALID, 416) is
	// pinned by TestChunkedUploadResumes.
	if r := f.call(t, "alice", "GET", "/v2/alice/app/manifests/1", nil, nil); r.status != http.StatusOK {
		t.Fatalf("the refused pushes changed alice/app: %d", r.status)
	}
}

// A login that cannot be asked (the REST API is down) is one answer on
// every endpoint that takes credentials: 503, saying so, in the
// endpoint's shape.
func TestLoginUnavailableEverywhere(t *testing.T) {
	t.Parallel()
	down := httptest.NewServer(http.NotFoundHandler())
	downURL := down.URL
	down.Close()
	srv := serveRegistry(t, registry.Options{BaseURL: func() string { return downURL + "/api/v2" }})
	for _, path := range []string{"/v2/", "/v2/alice/app/tags/list", "/token", "/api/catalog", "/api/tags/alice/app", "/api/shares/alice/app"} {
		req, _ := http.NewRequest("GET", srv.url+path, nil)
		req.SetBasicAuth("alice", "alice-password-1")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "the account service could not check the credentials") {
			t.Errorf("GET %s: %d %s", path, resp.StatusCode, body)
		}
		if strings.HasPrefix(path, "/api/") != strings.HasPrefix(string(body), `{`+"\n"+`  "error"`) {
			t.Errorf("GET %s: the shape of %s", path, body)
		}
	}
}
