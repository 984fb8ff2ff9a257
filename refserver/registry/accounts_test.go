package registry_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/forgehq/forge/refserver/registry"
	"github.com/google/go-containerregistry/pkg/v1/remote"
)

// adminREST calls the REST API as the site admin of the fixture.
func (f *fixture) adminREST(t *testing.T, method, path string) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"username": "root", "password": testUsers["root"].password})
	resp, err := http.Post(f.srv.BaseURL()+"/auth/login", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var login struct {
		Token string `json:"token"`
	}
	json.NewDecoder(resp.Body).Decode(&login)
	resp.Body.Close()
	req, _ := http.NewRequest(method, f.srv.BaseURL()+path, nil)
	req.Header.Set("Authorization", "token "+login.Token)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, data)
	}
}

// withToken sends a registry request with a Bearer token.
func (f *fixture) withToken(t *testing.T, token, method, path string) int {
	t.Helper()
	req, _ := http.NewRequest(method, f.url+path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// Deleting a user deletes their repositories, their tags and every share
// to or from them: an account created later with the same login starts
// with nothing, and the old account's token and credentials stop working
// at once.
func TestDeletedUserLeavesNothing(t *testing.T) {
	f := newFixture(t, "")
	img := randomImage(t)
	if err := remote.Write(f.ref(t, "alice/app:1"), img, as("alice")); err != nil {
		t.Fatal(err)
	}
	if err := remote.Write(f.ref(t, "bob/lib:1"), randomImage(t), as("bob")); err != nil {
		t.Fatal(err)
	}
	share := func(user, repo, with string) {
		t.Helper()
		f.call(t, user, "POST", "/api/shares/"+repo, nil, []byte(`{"user":"`+with+`"}`)).want(t, "share", http.StatusCreated)
	}
	share("bob", "bob/lib", "alice")
	share("alice", "alice/app", "bob")
	_, tok := f.getToken(t, "alice", testUsers["alice"].password, "repository:alice/app:pull", "repository:bob/lib:pull")
	f.call(t, "alice", "GET", "/v2/alice/app/manifests/1", nil, nil).want(t, "pull before the deletion", 200) // caches the credentials

	f.adminREST(t, "DELETE", "/admin/users/alice")

	if st := f.withToken(t, tok.Token, "GET", "/v2/alice/app/manifests/1"); st != http.StatusUnauthorized {
		t.Fatalf("the deleted user's token still pulls: %d", st)
	}
	f.call(t, "alice", "GET", "/v2/bob/lib/manifests/1", nil, nil).want(t, "cached credentials of the deleted user", http.StatusUnauthorized)

	if _, err := f.srv.CreateUser("alice", testUsers["alice"].password, ""); err != nil {
		t.Fatal(err)
	}
	f.call(t, "alice", "GET", "/v2/alice/app/manifests/1", nil, nil).want(t, "the old user's image, as the new alice", http.StatusNotFound)
	f.call(t, "alice", "GET", "/v2/bob/lib/manifests/1", nil, nil).want(t, "the image shared with the old alice", http.StatusForbidden)
	if st := f.withToken(t, tok.Token, "GET", "/v2/bob/lib/manifests/1"); st != http.StatusUnauthorized {
		t.Fatalf("the old alice's token pulls what was shared with her, as the new alice: %d", st)
	}
	var shares struct {
		SharedWith []string `json:"shared_with"`
	}
	json.Unmarshal(f.call(t, "bob", "GET", "/api/shares/bob/lib", nil, nil).want(t, "bob's shares", 200).body, &shares)
	if slices.Contains(shares.SharedWith, "alice") {
		t.Fatalf("bob/lib is still shared with alice: %v", shares.SharedWith)
	}
	var catalog struct {
		Repositories []string `json:"repositories"`
	}
	json.Unmarshal(f.call(t, "bob", "GET", "/v2/_catalog", nil, nil).want(t, "bob's catalog", 200).body, &catalog)
	if !slices.Equal(catalog.Repositories, []string{"bob/lib"}) {
		t.Fatalf("bob's catalog after alice's deletion: %v", catalog.Repositories)
	}
	// The layers nobody refers to any more are gone with the image.
	layers, _ := img.Layers()
	d, _ := layers[0].Digest()
	if _, err := os.Stat(filepath.Join(f.reg.Dir(), "blobs", "sha256", d.Hex)); !os.IsNotExist(err) {
		t.Fatalf("the deleted user's layer is still stored: %v", err)
	}
}

// A disabled account loses registry access at once, by token and by
// (cached) credentials, and gets it back when enabled.
func TestDisabledUserLosesAccessAtOnce(t *testing.T) {
	f := newFixture(t, "")
	if err := remote.Write(f.ref(t, "bob/lib:1"), randomImage(t), as("bob")); err != nil {
		t.Fatal(err)
	}
	_, tok := f.getToken(t, "bob", testUsers["bob"].password, "repository:bob/lib:pull")
	f.call(t, "bob", "GET", "/v2/bob/lib/manifests/1", nil, nil).want(t, "pull", 200)

	f.adminREST(t, "POST", "/admin/users/bob/disable")
	if st := f.withToken(t, tok.Token, "GET", "/v2/bob/lib/manifests/1"); st != http.StatusUnauthorized {
		t.Fatalf("a disabled user's token pulls: %d", st)
	}
	f.call(t, "bob", "GET", "/v2/bob/lib/manifests/1", nil, nil).want(t, "credentials of a disabled user", http.StatusUnauthorized)
	if resp, _ := f.getToken(t, "bob", testUsers["bob"].password, "repository:bob/lib:pull"); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a disabled user gets a token: %d", resp.StatusCode)
	}

	f.adminREST(t, "POST", "/admin/users/bob/enable")
	if st := f.withToken(t, tok.Token, "GET", "/v2/bob/lib/manifests/1"); st != 200 {
		t.Fatalf("the enabled user's token: %d", st)
	}
}

// Sharing with a login that does not exist is 404, so nobody who takes the
// login later inherits the share.
func TestShareWithUnknownUser(t *testing.T) {
	f := newFixture(t, "")
	f.call(t, "alice", "POST", "/api/shares/alice/app", nil, []byte(`{"user":"nobody-here"}`)).want(t, "share with nobody", http.StatusNotFound)
	var shares struct {
		SharedWith []string `json:"shared_with"`
	}
	json.Unmarshal(f.call(t, "alice", "GET", "/api/shares/alice/app", nil, nil).want(t, "shares", 200).body, &shares)
	if len(shares.SharedWith) != 0 {
		t.Fatalf("shared with %v", shares.SharedWith)
	}
}

// Unsharing takes effect at once, even for a token issued while the
// repository was shared.
func TestUnshareTakesEffectAtOnce(t *testing.T) {
	f := newFixture(t, "")
	if err := remote.Write(f.ref(t, "alice/shared:1"), randomImage(t), as("alice")); err != nil {
		t.Fatal(err)
	}
	f.call(t, "alice", "POST", "/api/shares/alice/shared", nil, []byte(`{"user":"bob"}`)).want(t, "share", http.StatusCreated)
	_, tok := f.getToken(t, "bob", testUsers["bob"].password, "repository:alice/shared:pull")
	if st := f.withToken(t, tok.Token, "GET", "/v2/alice/shared/manifests/1"); st != 200 {
		t.Fatalf("pull of a shared image: %d", st)
	}
	f.call(t, "alice", "DELETE", "/api/shares/alice/shared?user=bob", nil, nil).want(t, "unshare", 200)
	if st := f.withToken(t, tok.Token, "GET", "/v2/alice/shared/manifests/1"); st != http.StatusForbidden {
		t.Fatalf("pull with a token issued before the unshare: %d, want 403", st)
	}
}

// What the registry grants is bound to the account, not its login name: a
// new account under a deleted one's name gets none of the old token's or
// old password's rights, even within their lifetimes.
func TestGrantsBoundToAccount(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	_, tok := f.getToken(t, "alice", testUsers["alice"].password, "repository:alice/app:pull,push")
	f.call(t, "alice", "GET", "/v2/", nil, nil).want(t, "basic credentials (now cached)", http.StatusOK)

	f.adminREST(t, "DELETE", "/admin/users/alice")
	if _, err := f.srv.CreateUser("alice", "the-new-alice-password", ""); err != nil {
		t.Fatal(err)
	}
	if st := f.withToken(t, tok.Token, "POST", "/v2/alice/app/blobs/uploads/"); st != http.StatusUnauthorized {
		t.Errorf("the old alice's token starts an upload in the new alice's namespace: %d", st)
	}
	f.call(t, "alice", "GET", "/v2/", nil, nil).want(t, "the old alice's (cached) password", http.StatusUnauthorized)
	if resp, _ := f.getToken(t, "alice", "the-new-alice-password", "repository:alice/app:pull,push"); resp.StatusCode != http.StatusOK {
		t.Fatalf("the new alice's login: %d", resp.StatusCode)
	}
}

// The token a registry login's check obtains from POST /auth/login is
// revoked at once: registry logins leave no REST token behind.
func TestRegistryLoginLeavesNoToken(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	target, _ := url.Parse(f.url)
	proxy := httputil.NewSingleHostReverseProxy(target)
	var mu sync.Mutex
	var issued []string
	proxy.ModifyResponse = func(resp *http.Response) error {
		if resp.Request.URL.Path != "/api/v2/auth/login" {
			return nil
		}
		data, err := io.ReadAll(resp.Body)
		resp.Body = io.NopCloser(bytes.NewReader(data))
		var login struct {
			Token string `json:"token"`
		}
		json.Unmarshal(data, &login)
		mu.Lock()
		issued = append(issued, login.Token)
		mu.Unlock()
		return err
	}
	rest := httptest.NewServer(proxy)
	t.Cleanup(rest.Close)
	g := limitedRegistry(t, &fixture{url: rest.URL}, registry.Options{})

	for _, user := range []string{"alice", "root"} { // root: the role is read with the token too
		g.call(t, user, "GET", "/v2/", nil, nil).want(t, user+"'s login", http.StatusOK)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(issued) != 2 {
		t.Fatalf("%d logins seen, want 2", len(issued))
	}
	for _, tok := range issued {
		req, _ := http.NewRequest("GET", f.srv.BaseURL()+"/me", nil)
		req.Header.Set("Authorization", "token "+tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("a token of a registry login still works: GET /me answers %d", resp.StatusCode)
		}
	}
}
