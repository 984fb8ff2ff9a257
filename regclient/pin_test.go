package regclient_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/forgehq/forge/regclient"
	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
)

// realmRegistry is a hostile registry: its challenge names realm (built
// from its own port) as the token service, and it records every
// Authorization it is sent on /token.
type realmRegistry struct {
	srv   *httptest.Server
	mu    sync.Mutex
	basic []string // paths that received Basic
}

func newRealmRegistry(t *testing.T, realm func(port string) string) *realmRegistry {
	r := &realmRegistry{}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if strings.HasPrefix(req.Header.Get("Authorization"), "Basic ") {
			r.mu.Lock()
			r.basic = append(r.basic, req.URL.Path)
			r.mu.Unlock()
		}
		if req.URL.Path == "/token" {
			fmt.Fprintln(w, `{"token":"t"}`)
			return
		}
		if req.Header.Get("Authorization") == "Bearer t" {
			fmt.Fprintln(w, `{"name":"alice/app","tags":["private"]}`)
			return
		}
		_, port, _ := strings.Cut(strings.TrimPrefix(r.srv.URL, "http://"), ":")
		w.Header().Set("WWW-Authenticate", `Bearer realm="`+realm(port)+`/token",service="x"`)
		w.WriteHeader(http.StatusUnauthorized)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

// TestPasswordIsAlwaysPinned (issue 37.4): a client built with no
// TokenOrigins at all — as completion's was — never sends its password to
// a realm on another origin, whatever form the host takes: the same port
// by name (localhost for 127.0.0.1), another port. Given as a token
// origin, the realm gets it. (go-containerregistry itself refuses a realm
// given as a private address literal, so realms here are names.)
func TestPasswordIsAlwaysPinned(t *testing.T) {
	t.Parallel()
	for _, realm := range []func(string) string{
		func(port string) string { return "http://localhost:" + port },
		func(port string) string { return "http://localhost:1" },
	} {
		reg := newRealmRegistry(t, realm)
		c, err := regclient.New(regclient.Options{RegistryURL: reg.srv.URL, Username: "alice", Password: "pw-alice-1"})
		if err != nil {
			t.Fatal(err)
		}
		repo, _ := c.ParseRepository("alice/app")
		_, _, err = c.Tags(context.Background(), repo)
		var withheld *regclient.WithheldError
		if !errors.As(err, &withheld) {
			t.Errorf("realm %s: want a WithheldError, got %v", realm("P"), err)
		}
		if len(reg.basic) != 0 {
			t.Errorf("realm %s: the password reached %v", realm("P"), reg.basic)
		}
	}
	// Trusted: the exact origin receives it.
	reg := newRealmRegistry(t, func(port string) string { return "http://localhost:" + port })
	_, port, _ := strings.Cut(strings.TrimPrefix(reg.srv.URL, "http://"), ":")
	c, _ := regclient.New(regclient.Options{RegistryURL: reg.srv.URL, Username: "alice", Password: "pw-alice-1",
		TokenOrigins: []string{"http://localhost:" + port}})
	repo, _ := c.ParseRepository("alice/app")
	if tags, _, err := c.Tags(context.Background(), repo); err != nil || len(tags) != 1 {
		t.Errorf("trusted realm: %v %v", tags, err)
	}
}

// TestKeychainNeverRunsForge (issue 37.3): with a real
// ~/.docker/config.json naming forge the credential helper
// (credHelpers, then credsStore) and a docker-credential-forge on the
// PATH that would answer, the client asks it for no registry — its own
// (which gets the profile's login or none) nor another.
func TestKeychainNeverRunsForge(t *testing.T) {
	home, bin := t.TempDir(), t.TempDir()
	called := filepath.Join(t.TempDir(), "called")
	helper := "#!/bin/sh\necho \"$@\" >> " + called + "\necho '{\"Username\":\"alice\",\"Secret\":\"pw-alice-1\"}'\n"
	for _, n := range []string{"forge", "other"} {
		if err := os.WriteFile(filepath.Join(bin, "docker-credential-"+n), []byte(helper), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	t.Setenv("DOCKER_CONFIG", "")
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	if err := os.MkdirAll(filepath.Join(home, ".docker"), 0o700); err != nil {
		t.Fatal(err)
	}
	c, err := regclient.New(regclient.Options{RegistryURL: "http://127.0.0.1:5000"})
	if err != nil {
		t.Fatal(err)
	}
	resolve := func(config, registry string) authn.Authenticator {
		t.Helper()
		if err := os.WriteFile(filepath.Join(home, ".docker", "config.json"), []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
		reg, _ := name.NewRegistry(registry)
		a, err := c.Keychain().Resolve(reg)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	for _, config := range []string{
		`{"credHelpers": {"127.0.0.1:5000": "forge", "127.0.0.1:6000": "forge"}}`,
		`{"credsStore": "forge"}`,
	} {
		for _, registry := range []string{"127.0.0.1:5000", "127.0.0.1:6000"} {
			if a := resolve(config, registry); a != authn.Anonymous {
				t.Errorf("%s with %s: %v, want anonymous", registry, config, a)
			}
		}
	}
	if b, err := os.ReadFile(called); err == nil {
		t.Errorf("forge's helper was run: %s", b)
	}
	// Another helper still serves another registry; never the profile's.
	if a := resolve(`{"credsStore": "other"}`, "127.0.0.1:6000"); a == authn.Anonymous {
		t.Error("another helper was not asked for another registry")
	}
	if a := resolve(`{"credsStore": "other"}`, "127.0.0.1:5000"); a != authn.Anonymous {
		t.Errorf("the profile's registry got docker's credentials: %v", a)
	}
}
