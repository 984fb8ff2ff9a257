package registry_test

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
	"github.com/forgehq/forge/refserver/registry"
	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/remote/transport"
)

// The accounts of these tests, created in a reference server whose REST
// login the token service calls over HTTP.
var testUsers = map[string]struct {
	password string
	role     string
}{
	"alice":    {"alice-password-1", ""},
	"bob":      {"bob-password-22", ""},
	"root":     {"root-password-333", "site_admin"},
	"customer": {"customer-password-4", "customer_admin"},
}

type fixture struct {
	srv  *refserver.Server
	reg  *registry.Registry
	url  string
	host string
}

// newFixture starts a reference server (in memory, or over dir) with the
// test accounts.
func newFixture(t *testing.T, dir string) *fixture {
	t.Helper()
	srv := refservertest.Start(t, refservertest.DataDir(dir))
	// Clients may hold connections they dialed and never used; the
	// server's graceful close waits five seconds for such connections, so
	// close them first (cleanups run last-registered first).
	t.Cleanup(closeIdleClients)
	for u, acct := range testUsers {
		if _, err := srv.CreateUser(u, acct.password, acct.role); err != nil && dir == "" {
			t.Fatal(err)
		}
	}
	return &fixture{srv: srv, reg: srv.Registry(), url: srv.URL(), host: strings.TrimPrefix(srv.URL(), "http://")}
}

func closeIdleClients() {
	remote.DefaultTransport.(*http.Transport).CloseIdleConnections()
	http.DefaultClient.CloseIdleConnections()
}

func (f *fixture) ref(t *testing.T, s string) name.Reference {
	t.Helper()
	ref, err := name.ParseReference(f.host+"/"+s, name.Insecure)
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

func as(user string) remote.Option {
	return remote.WithAuth(&authn.Basic{Username: user, Password: testUsers[user].password})
}

func randomImage(t *testing.T) v1.Image {
	t.Helper()
	img, err := random.Image(1024, 2)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// statusOf returns the HTTP status of a go-containerregistry error.
func statusOf(err error) int {
	var te *transport.Error
	if errors.As(err, &te) {
		return te.StatusCode
	}
	return 0
}

// getToken asks the token endpoint with basic credentials.
// tokenResponse is the token endpoint's answer.
type tokenResponse struct {
	Token       string `json:"token"`
	AccessToken string `json:"access_token"`
	ExpiresIn   int    `json:"expires_in"`
	IssuedAt    string `json:"issued_at"`
}

func (f *fixture) getToken(t *testing.T, user, password string, scopes ...string) (*http.Response, tokenResponse) {
	t.Helper()
	q := url.Values{"service": {"forge-registry"}, "scope": scopes}
	req, _ := http.NewRequest(http.MethodGet, f.url+"/token?"+q.Encode(), nil)
	if user != "" {
		req.SetBasicAuth(user, password)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var tr tokenResponse
	json.NewDecoder(resp.Body).Decode(&tr)
	return resp, tr
}

// decodeClaims reads a JWT's header and claims without verifying it, to
// look at what a client sees.
func decodeClaims(t *testing.T, tok string) (map[string]any, map[string]any) {
	t.Helper()
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		t.Fatalf("token %q is not a JWT", tok)
	}
	var hdr, cl map[string]any
	for i, v := range []*map[string]any{&hdr, &cl} {
		b, err := base64.RawURLEncoding.DecodeString(parts[i])
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatal(err)
		}
	}
	return hdr, cl
}

func TestTokenEndpoint(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	f.reg.Share("alice/shared", "bob")

	t.Run("claims", func(t *testing.T) {
		resp, tr := f.getToken(t, "alice", testUsers["alice"].password, "repository:alice/app:pull,push")
		if resp.StatusCode != 200 {
			t.Fatalf("status %d", resp.StatusCode)
		}
		if tr.Token == "" || tr.AccessToken != tr.Token || tr.ExpiresIn != 300 || tr.IssuedAt == "" {
			t.Fatalf("response %+v", tr)
		}
		hdr, cl := decodeClaims(t, tr.Token)
		if hdr["alg"] != "ES256" || hdr["kid"] != f.reg.KeyID() {
			t.Errorf("header %v", hdr)
		}
		if cl["iss"] != "forge-token-service" || cl["sub"] != "alice" || cl["aud"] != "forge-registry" || cl["jti"] == "" {
			t.Errorf("claims %v", cl)
		}
		for _, k := range []string{"exp", "nbf", "iat"} {
			if _, ok := cl[k].(float64); !ok {
				t.Errorf("claim %s = %v", k, cl[k])
			}
		}
		acc, _ := json.Marshal(cl["access"])
		if string(acc) != `[{"actions":["pull","push"],"name":"alice/app","type":"repository"}]` {
			t.Errorf("access %s", acc)
		}
	})

	t.Run("intersection", func(t *testing.T) {
		_, tr := f.getToken(t, "bob", testUsers["bob"].password,
			"repository:alice/app:pull,push", "repository:alice/shared:pull,push,delete",
			"repository:bob/x:pull registry:catalog:*")
		_, cl := decodeClaims(t, tr.Token)
		acc, _ := json.Marshal(cl["access"])
		want := `[{"actions":["pull"],"name":"alice/shared","type":"repository"},{"actions":["pull"],"name":"bob/x","type":"repository"}]`
		if string(acc) != want {
			t.Errorf("access\n got %s\nwant %s", acc, want)
		}
	})

	// A registry that trusts these tokens lists every repository to the
	// holder of registry:catalog:*, so only site admins get it.
	t.Run("catalog scope", func(t *testing.T) {
		for user, want := range map[string]string{
			"root":     `[{"actions":["*"],"name":"catalog","type":"registry"}]`,
			"customer": `[]`,
			"alice":    `[]`,
		} {
			_, tr := f.getToken(t, user, testUsers[user].password, "registry:catalog:*")
			_, cl := decodeClaims(t, tr.Token)
			if acc, _ := json.Marshal(cl["access"]); string(acc) != want {
				t.Errorf("%s: access %s, want %s", user, acc, want)
			}
		}
	})

	t.Run("bad credentials", func(t *testing.T) {
		for _, c := range [][2]string{{"", ""}, {"alice", "wrong"}, {"nobody", "x"}} {
			resp, tr := f.getToken(t, c[0], c[1], "repository:alice/app:pull")
			if resp.StatusCode != 401 || tr.Token != "" {
				t.Errorf("%q: status %d, token %q", c[0], resp.StatusCode, tr.Token)
			}
		}
	})

	t.Run("malformed scope", func(t *testing.T) {
		resp, _ := f.getToken(t, "alice", testUsers["alice"].password, "repository-alice")
		if resp.StatusCode != 400 {
			t.Errorf("status %d", resp.StatusCode)
		}
	})

	t.Run("service names the audience", func(t *testing.T) {
		q := url.Values{"service": {"other-registry"}, "scope": {"repository:alice/app:pull"}}
		req, _ := http.NewRequest(http.MethodGet, f.url+"/token?"+q.Encode(), nil)
		req.SetBasicAuth("alice", testUsers["alice"].password)
		resp, _ := http.DefaultClient.Do(req)
		var tr tokenResponse
		json.NewDecoder(resp.Body).Decode(&tr)
		resp.Body.Close()
		_, cl := decodeClaims(t, tr.Token)
		if cl["aud"] != "other-registry" {
			t.Fatalf("aud %v", cl["aud"])
		}
		// This registry refuses a token meant for another.
		req, _ = http.NewRequest(http.MethodGet, f.url+"/v2/alice/app/tags/list", nil)
		req.Header.Set("Authorization", "Bearer "+tr.Token)
		resp, _ = http.DefaultClient.Do(req)
		resp.Body.Close()
		if resp.StatusCode != 401 || !strings.Contains(resp.Header.Get("WWW-Authenticate"), `error="invalid_token"`) {
			t.Errorf("status %d, challenge %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
		}
	})

	t.Run("password grant", func(t *testing.T) {
		form := url.Values{"grant_type": {"password"}, "username": {"alice"}, "password": {testUsers["alice"].password},
			"service": {"forge-registry"}, "scope": {"repository:alice/app:pull"}}
		resp, err := http.PostForm(f.url+"/token", form)
		if err != nil {
			t.Fatal(err)
		}
		var tr tokenResponse
		json.NewDecoder(resp.Body).Decode(&tr)
		resp.Body.Close()
		if resp.StatusCode != 200 || tr.AccessToken == "" {
			t.Fatalf("status %d %+v", resp.StatusCode, tr)
		}
		form.Set("grant_type", "refresh_token")
		resp, _ = http.PostForm(f.url+"/token", form)
		resp.Body.Close()
		if resp.StatusCode != 400 {
			t.Errorf("refresh grant: status %d", resp.StatusCode)
		}
	})

	t.Run("expired", func(t *testing.T) {
		tok, err := f.reg.IssueForTest("alice", "alice/app", []string{"pull"}, time.Minute, time.Now().Add(-2*time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		req, _ := http.NewRequest(http.MethodGet, f.url+"/v2/", nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, _ := http.DefaultClient.Do(req)
		resp.Body.Close()
		if resp.StatusCode != 401 || !strings.Contains(resp.Header.Get("WWW-Authenticate"), `error="invalid_token"`) {
			t.Errorf("status %d, challenge %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
		}
	})

}

func TestChallenge(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	resp, err := http.Get(f.url + "/v2/alice/app/manifests/latest")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	want := `Bearer realm="` + f.url + `/token",service="forge-registry",scope="repository:alice/app:pull"`
	if resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != want {
		t.Errorf("status %d, challenge\n got %q\nwant %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"), want)
	}
}

func TestNamespacePolicy(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	img := randomImage(t)

	if err := remote.Write(f.ref(t, "alice/app:1.0"), img, as("alice")); err != nil {
		t.Fatalf("push to own namespace: %v", err)
	}
	err := remote.Write(f.ref(t, "bob/app:1.0"), img, as("alice"))
	if statusOf(err) != 403 {
		t.Fatalf("push to bob/: %v", err)
	}
	if err := remote.Write(f.ref(t, "app:1.0"), img, as("alice")); statusOf(err) != 403 {
		t.Fatalf("push outside any namespace: %v", err)
	}
	// Anonymous: 401.
	if _, err := remote.Image(f.ref(t, "alice/app:1.0")); statusOf(err) != 401 {
		t.Fatalf("anonymous pull: %v", err)
	}
	// Wrong password: 401.
	if _, err := remote.Image(f.ref(t, "alice/app:1.0"), remote.WithAuth(&authn.Basic{Username: "alice", Password: "nope"})); statusOf(err) != 401 {
		t.Fatalf("wrong password: %v", err)
	}
	// Bob may not pull until it is shared, and never push or delete.
	if _, err := remote.Image(f.ref(t, "alice/app:1.0"), as("bob")); statusOf(err) != 403 {
		t.Fatalf("bob pull before sharing: %v", err)
	}
	if err := f.reg.Share("alice/app", "bob"); err != nil {
		t.Fatal(err)
	}
	got, err := remote.Image(f.ref(t, "alice/app:1.0"), as("bob"))
	if err != nil {
		t.Fatalf("bob pull after sharing: %v", err)
	}
	if err := sameImage(img, got); err != nil {
		t.Fatal(err)
	}
	if err := remote.Write(f.ref(t, "alice/app:evil"), img, as("bob")); statusOf(err) != 403 {
		t.Fatalf("bob push to shared repo: %v", err)
	}
	if err := remote.Delete(f.ref(t, "alice/app:1.0"), as("bob")); statusOf(err) != 403 {
		t.Fatalf("bob delete in shared repo: %v", err)
	}
	// Admins are not special for images.
	if _, err := remote.Image(f.ref(t, "alice/app:1.0"), as("root")); statusOf(err) != 403 {
		t.Fatalf("admin pull: %v", err)
	}
	if err := f.reg.Unshare("alice/app", "bob"); err != nil {
		t.Fatal(err)
	}
	if _, err := remote.Image(f.ref(t, "alice/app:1.0"), as("bob")); statusOf(err) != 403 {
		t.Fatalf("bob pull after unsharing: %v", err)
	}
}

// sameImage compares the digests of two images, layer by layer.
func sameImage(want, got v1.Image) error {
	wd, _ := want.Digest()
	gd, err := got.Digest()
	if err != nil {
		return err
	}
	if wd != gd {
		return errors.New("digest " + gd.String() + ", want " + wd.String())
	}
	ls, err := got.Layers()
	if err != nil {
		return err
	}
	for _, l := range ls {
		rc, err := l.Compressed()
		if err != nil {
			return err
		}
		// Reading it whole makes go-containerregistry check its digest.
		if _, err := io.Copy(io.Discard, rc); err != nil {
			return err
		}
		if err := rc.Close(); err != nil {
			return err
		}
	}
	return nil
}

// Knowing a digest is not enough to read a blob: it must have been pushed
// to (or mounted into) a repository the reader may pull.
func TestBlobsArePerRepository(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	img := randomImage(t)
	if err := remote.Write(f.ref(t, "alice/app:1"), img, as("alice")); err != nil {
		t.Fatal(err)
	}
	ls, _ := img.Layers()
	d, _ := ls[0].Digest()
	l, err := remote.Layer(f.ref(t, "bob/x@"+d.String()).(name.Digest), as("bob"))
	if err == nil {
		_, err = l.Compressed()
	}
	if statusOf(err) != 404 {
		t.Fatalf("bob reading alice's layer through his own repository: %v", err)
	}
	hreq, _ := http.NewRequest(http.MethodHead, f.url+"/v2/bob/x/blobs/"+d.String(), nil)
	hreq.SetBasicAuth("bob", testUsers["bob"].password)
	resp, err := http.DefaultClient.Do(hreq)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Fatalf("HEAD of alice's blob through bob/x: %d", resp.StatusCode)
	}

	// Pushing the same image to another of alice's repositories mounts the
	// blobs instead of uploading them.
	if err := remote.Write(f.ref(t, "alice/app2:1"), img, as("alice")); err != nil {
		t.Fatal(err)
	}
	if !f.reg.HasBlob("alice/app2", d.String()) {
		t.Fatal("blob not linked into alice/app2")
	}

	// Deleting a blob from one repository leaves the other's.
	dreq, _ := http.NewRequest(http.MethodDelete, f.url+"/v2/alice/app2/blobs/"+d.String(), nil)
	dreq.SetBasicAuth("alice", testUsers["alice"].password)
	resp, _ = http.DefaultClient.Do(dreq)
	resp.Body.Close()
	if resp.StatusCode != 202 {
		t.Fatalf("blob delete: %d", resp.StatusCode)
	}
	if f.reg.HasBlob("alice/app2", d.String()) || !f.reg.HasBlob("alice/app", d.String()) {
		t.Fatal("blob delete unlinked the wrong repositories")
	}
	if _, err := remote.Image(f.ref(t, "alice/app:1"), as("alice")); err != nil {
		t.Fatal(err)
	}
}

func TestMountNeedsPull(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	img := randomImage(t)
	if err := remote.Write(f.ref(t, "alice/app:1"), img, as("alice")); err != nil {
		t.Fatal(err)
	}
	ls, _ := img.Layers()
	d, _ := ls[0].Digest()
	mount := func(from string) int {
		q := url.Values{"mount": {d.String()}}
		if from != "" {
			q.Set("from", from)
		}
		req, _ := http.NewRequest(http.MethodPost, f.url+"/v2/bob/x/blobs/uploads/?"+q.Encode(), nil)
		req.SetBasicAuth("bob", testUsers["bob"].password)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	// Without pull on alice/app, bob gets an ordinary upload session.
	if got := mount("alice/app"); got != 202 {
		t.Fatalf("mount without access: %d, want 202", got)
	}
	if got := mount(""); got != 202 {
		t.Fatalf("mount without from and without access: %d, want 202", got)
	}
	f.reg.Share("alice/app", "bob")
	if got := mount("alice/app"); got != 201 {
		t.Fatalf("mount from a shared repository: %d, want 201", got)
	}
	if !f.reg.HasBlob("bob/x", d.String()) {
		t.Fatal("mounted blob not linked")
	}
}

func TestDeleteManifest(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	img := randomImage(t)
	for _, tag := range []string{"1.0", "latest"} {
		if err := remote.Write(f.ref(t, "alice/app:"+tag), img, as("alice")); err != nil {
			t.Fatal(err)
		}
	}
	other := randomImage(t)
	if err := remote.Write(f.ref(t, "alice/app:2.0"), other, as("alice")); err != nil {
		t.Fatal(err)
	}
	d, _ := img.Digest()
	if err := remote.Delete(f.ref(t, "alice/app@"+d.String()), as("alice")); err != nil {
		t.Fatal(err)
	}
	tags, err := remote.List(f.ref(t, "alice/app").Context(), as("alice"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tags, []string{"2.0"}) {
		t.Fatalf("tags after deleting the digest: %v", tags)
	}
	if _, err := remote.Image(f.ref(t, "alice/app:latest"), as("alice")); statusOf(err) != 404 {
		t.Fatalf("pull of a deleted tag: %v", err)
	}
	// Deleting a tag keeps the manifest by digest.
	if err := remote.Delete(f.ref(t, "alice/app:2.0"), as("alice")); err != nil {
		t.Fatal(err)
	}
	od, _ := other.Digest()
	if _, err := remote.Image(f.ref(t, "alice/app@"+od.String()), as("alice")); err != nil {
		t.Fatalf("pull by digest after deleting its tag: %v", err)
	}
	if _, err := remote.List(f.ref(t, "alice/app").Context(), as("alice")); err != nil {
		t.Fatalf("tags of a repository with untagged manifests: %v", err)
	}
}

func TestIndex(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	amd, arm := randomImage(t), randomImage(t)
	idx := mutate.AppendManifests(empty.Index,
		mutate.IndexAddendum{Add: amd, Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: "linux", Architecture: "amd64"}}},
		mutate.IndexAddendum{Add: arm, Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: "linux", Architecture: "arm64"}}},
	)
	if err := remote.WriteIndex(f.ref(t, "alice/multi:1"), idx, as("alice")); err != nil {
		t.Fatal(err)
	}
	got, err := remote.Image(f.ref(t, "alice/multi:1"), as("alice"), remote.WithPlatform(v1.Platform{OS: "linux", Architecture: "arm64"}))
	if err != nil {
		t.Fatal(err)
	}
	if err := sameImage(arm, got); err != nil {
		t.Fatal(err)
	}
}

func TestListings(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	img := randomImage(t)
	for _, r := range []string{"alice/app:1", "alice/app:2", "alice/tool:1"} {
		if err := remote.Write(f.ref(t, r), img, as("alice")); err != nil {
			t.Fatal(err)
		}
	}
	if err := remote.Write(f.ref(t, "bob/thing:1"), img, as("bob")); err != nil {
		t.Fatal(err)
	}
	f.reg.Share("alice/tool", "bob")

	cat, err := remote.Catalog(t.Context(), f.ref(t, "bob/x").Context().Registry, as("bob"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cat, []string{"alice/tool", "bob/thing"}) {
		t.Fatalf("bob's catalog: %v", cat)
	}

	get := func(user, path string) (int, string) {
		req, _ := http.NewRequest(http.MethodGet, f.url+path, nil)
		if user != "" {
			req.SetBasicAuth(user, testUsers[user].password)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	// Basic credentials work on the listing endpoints, with pagination.
	code, body := get("alice", "/v2/_catalog?n=1")
	if code != 200 || !strings.Contains(body, `"alice/app"`) || strings.Contains(body, "alice/tool") {
		t.Fatalf("paginated catalog: %d %s", code, body)
	}
	code, body = get("alice", "/v2/alice/app/tags/list")
	if code != 200 || !strings.Contains(body, `"tags": [`) || !strings.Contains(body, `"1"`) || !strings.Contains(body, `"2"`) {
		t.Fatalf("tags/list: %d %s", code, body)
	}
	if code, _ = get("", "/v2/_catalog"); code != 401 {
		t.Fatalf("anonymous catalog: %d", code)
	}
	if code, _ = get("alice", "/v2/alice/nothing/tags/list"); code != 404 {
		t.Fatalf("tags of a missing repository: %d", code)
	}

	// The admin catalog is for site admins.
	if code, _ = get("alice", "/api/catalog"); code != 403 {
		t.Fatalf("non-admin /api/catalog: %d", code)
	}
	if code, _ = get("customer", "/api/catalog"); code != 403 {
		t.Fatalf("customer_admin /api/catalog: %d", code)
	}
	code, body = get("root", "/api/catalog")
	var repos []struct {
		Name, Namespace string
		Tags            []string
		UpdatedAt       time.Time `json:"updated_at"`
	}
	if err := json.Unmarshal([]byte(body), &repos); code != 200 || err != nil {
		t.Fatalf("/api/catalog: %d %s", code, body)
	}
	var names []string
	for _, r := range repos {
		names = append(names, r.Name)
	}
	if !slices.Equal(names, []string{"alice/app", "alice/tool", "bob/thing"}) || !slices.Equal(repos[0].Tags, []string{"1", "2"}) || repos[0].Namespace != "alice" {
		t.Fatalf("/api/catalog: %+v", repos)
	}

	// /api/tags with digests.
	code, body = get("bob", "/api/tags/alice/tool")
	var tags []struct {
		Name, Digest string
		MediaType    string    `json:"media_type"`
		Size         int64     `json:"size"`
		UpdatedAt    time.Time `json:"updated_at"`
	}
	if err := json.Unmarshal([]byte(body), &tags); code != 200 || err != nil || len(tags) != 1 {
		t.Fatalf("/api/tags: %d %s", code, body)
	}
	d, _ := img.Digest()
	if tags[0].Name != "1" || tags[0].Digest != d.String() || tags[0].Size == 0 || tags[0].UpdatedAt.IsZero() {
		t.Fatalf("/api/tags entry: %+v", tags[0])
	}
	if code, _ = get("bob", "/api/tags/alice/app"); code != 403 {
		t.Fatalf("/api/tags of an unshared repository: %d", code)
	}
}

func TestSharesEndpoint(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	do := func(user, method, path, body string) (int, string) {
		req, _ := http.NewRequest(method, f.url+path, strings.NewReader(body))
		req.SetBasicAuth(user, testUsers[user].password)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, body := do("alice", "POST", "/api/shares/alice/app", `{"user":"bob"}`)
	if code != 201 || !strings.Contains(body, `"shared_with": [`) || !strings.Contains(body, `"bob"`) {
		t.Fatalf("share: %d %s", code, body)
	}
	if !f.reg.SharedWithUser("alice/app", "bob") {
		t.Fatal("not shared")
	}
	if code, _ = do("bob", "POST", "/api/shares/alice/app", `{"user":"root"}`); code != 403 {
		t.Fatalf("sharing someone else's repository: %d", code)
	}
	if code, _ = do("alice", "POST", "/api/shares/alice/app", `{}`); code != 422 {
		t.Fatalf("share without a user: %d", code)
	}
	code, body = do("alice", "DELETE", "/api/shares/alice/app?user=bob", "")
	if code != 200 || strings.Contains(body, "bob") {
		t.Fatalf("unshare: %d %s", code, body)
	}
}

// The token service remembers a successful login for a while, and never
// a failed one. The login calls are counted by a proxy in front of the
// reference server's REST API.
func TestCredentialCache(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	var logins atomic.Int64
	target, _ := url.Parse(f.url)
	proxy := httputil.NewSingleHostReverseProxy(target)
	counting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v2/auth/login" {
			logins.Add(1)
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(counting.Close)
	reg, err := registry.New(registry.Options{BaseURL: func() string { return counting.URL + "/api/v2" }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() })
	mux := http.NewServeMux()
	reg.Mount(mux)
	front := httptest.NewServer(mux)
	t.Cleanup(front.Close)
	g := &fixture{reg: reg, url: front.URL}

	for range 3 {
		if resp, _ := g.getToken(t, "alice", testUsers["alice"].password, "repository:alice/app:pull"); resp.StatusCode != 200 {
			t.Fatalf("status %d", resp.StatusCode)
		}
	}
	if n := logins.Load(); n != 1 {
		t.Errorf("%d logins for three token requests, want 1", n)
	}
	for range 2 {
		if resp, _ := g.getToken(t, "alice", "wrong", "repository:alice/app:pull"); resp.StatusCode != 401 {
			t.Fatalf("wrong password: status %d", resp.StatusCode)
		}
	}
	if n := logins.Load(); n != 3 {
		t.Errorf("%d logins, want 3", n)
	}
}

func TestPersistence(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f := newFixture(t, dir)
	img := randomImage(t)
	if err := remote.Write(f.ref(t, "alice/app:1.0"), img, as("alice")); err != nil {
		t.Fatal(err)
	}
	amd, arm := randomImage(t), randomImage(t)
	idx := mutate.AppendManifests(empty.Index,
		mutate.IndexAddendum{Add: amd, Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: "linux", Architecture: "amd64"}}},
		mutate.IndexAddendum{Add: arm, Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: "linux", Architecture: "arm64"}}},
	)
	if err := remote.WriteIndex(f.ref(t, "alice/multi:1"), idx, as("alice")); err != nil {
		t.Fatal(err)
	}
	f.reg.Share("alice/app", "bob")
	cert := f.reg.CertificatePEM()

	g := newFixture(t, dir)
	if string(g.reg.CertificatePEM()) != string(cert) {
		t.Error("signing key changed across a restart")
	}
	got, err := remote.Image(g.ref(t, "alice/app:1.0"), as("bob"))
	if err != nil {
		t.Fatalf("pull after restart: %v", err)
	}
	if err := sameImage(img, got); err != nil {
		t.Fatal(err)
	}
	gi, err := remote.Index(g.ref(t, "alice/multi:1"), as("alice"))
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := idx.Digest()
	if gd, _ := gi.Digest(); gd != wd {
		t.Fatalf("index digest %s after restart, want %s", gd, wd)
	}
}
