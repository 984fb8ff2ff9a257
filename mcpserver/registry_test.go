package mcpserver

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/forgehq/forge/app/mcptools"
	"github.com/forgehq/forge/mcpserver/mcpservertest"
	"github.com/forgehq/forge/refserver/refservertest"
	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/remote"
)

// pushed pushes one random image as alice under alice/app with tags
// (forge's environment names the reference server's registry).
func pushed(t *testing.T, h *mcpservertest.World, tags ...string) string {
	return pushedTo(t, h, "alice/app", tags...)
}

// pushedTo pushes one random image as alice under repo with tags.
func pushedTo(t testing.TB, h *mcpservertest.World, repo string, tags ...string) string {
	t.Helper()
	host := strings.TrimPrefix(h.Srv.URL(), "http://")
	img, err := random.Image(2048, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, tag := range tags {
		ref, err := name.ParseReference(host+"/"+repo+":"+tag, name.Insecure)
		if err != nil {
			t.Fatal(err)
		}
		if err := remote.Write(ref, img, remote.WithAuth(&authn.Basic{Username: "alice", Password: refservertest.Password("alice")})); err != nil {
			t.Fatal(err)
		}
	}
	d, _ := img.Digest()
	return d.String()
}

func TestRegistryTools(t *testing.T) {
	h := mcpservertest.NewWorld(t)
	digest := pushed(t, h, "1.0", "latest")
	s := serve(t, h, allowWrite, toolsets("registry"))
	var repos RegistryRepos
	s.Call("registry_repositories", nil, &repos)
	if strings.Join(repos.Repositories, ",") != "alice/app" {
		t.Errorf("registry_repositories: %+v", repos)
	}
	var tags TagList
	s.Call("image_tags", map[string]any{"repository": "alice/app"}, &tags)
	if len(tags.Tags) != 2 || tags.Tags[0].Name != "1.0" || tags.Tags[0].Digest != digest || tags.Tags[0].ImageSize < 4096 {
		t.Errorf("image_tags: %+v", tags)
	}
	var img Image
	s.Call("image_manifest", map[string]any{"reference": "alice/app:1.0"}, &img)
	if img.Digest != digest || len(img.Layers) != 2 || img.Size != tags.Tags[0].ImageSize || !json.Valid([]byte(img.Manifest)) {
		t.Errorf("image_manifest: %+v", img)
	}
	var del Deleted
	s.Call("image_tag_delete", map[string]any{"reference": "alice/app:latest"}, &del)
	s.Call("image_tags", map[string]any{"repository": "alice/app"}, &tags)
	if !strings.HasSuffix(del.Deleted, "alice/app:latest") || len(tags.Tags) != 1 || tags.Tags[0].Name != "1.0" {
		t.Errorf("after image_tag_delete %+v: %+v", del, tags)
	}
	if msg := s.Fail("image_tag_delete", map[string]any{"reference": "bob/app:1.0"}); !strings.Contains(msg, "bob/app") {
		t.Errorf("deleting under another namespace: %q", msg)
	}
	if msg := s.Fail("image_manifest", map[string]any{"reference": "alice/app:9.9"}); strings.Contains(msg, "\n") || !strings.Contains(msg, "9.9") {
		t.Errorf("unknown tag: %q", msg)
	}
}

// TestImageToolsStayOnTheProfilesRegistry: a registry host the model
// names receives nothing (on main it got GET /v2/ and a token request,
// with a path the model chose) unless the user allowed it at start-up;
// openWorldHint says which.
func TestImageToolsStayOnTheProfilesRegistry(t *testing.T) {
	h := mcpservertest.NewWorld(t)
	var mu sync.Mutex
	var got []string
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.URL.Path)
		mu.Unlock()
		http.NotFound(w, r)
	}))
	defer sink.Close()
	host := strings.TrimPrefix(sink.URL, "http://")
	s := serve(t, h, allowWrite, toolsets("registry"))
	for tool, args := range map[string]map[string]any{
		"image_tags":       {"repository": host + "/leak/secret-from-an-issue"},
		"image_manifest":   {"reference": host + "/leak/x:1"},
		"image_tag_delete": {"reference": host + "/alice/x:1"},
	} {
		if msg := s.Fail(tool, args); !strings.Contains(msg, "is not the profile's registry") || !strings.Contains(msg, "--allow-registry "+host) {
			t.Errorf("%s: %q", tool, msg)
		}
	}
	for _, tool := range s.Tools() {
		if *tool.Annotations.OpenWorldHint {
			t.Errorf("%s: open world", tool.Name)
		}
	}
	mu.Lock()
	if len(got) != 0 {
		t.Errorf("the sink received %v", got)
	}
	mu.Unlock()

	allowed := serve(t, h, toolsets("registry"), func(o *mcptools.ServeOptions) { o.RegistryHosts = []string{host} })
	allowed.Fail("image_tags", map[string]any{"repository": host + "/alice/x"})
	mu.Lock()
	if len(got) == 0 {
		t.Error("an allowed host received nothing")
	}
	mu.Unlock()
	for _, tool := range allowed.Tools() {
		if !*tool.Annotations.OpenWorldHint {
			t.Errorf("%s with another registry allowed: not open world", tool.Name)
		}
	}
}
