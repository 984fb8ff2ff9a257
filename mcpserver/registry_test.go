package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"

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
	t.Helper()
	host := strings.TrimPrefix(h.Srv.URL(), "http://")
	img, err := random.Image(2048, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, tag := range tags {
		ref, err := name.ParseReference(host+"/alice/app:"+tag, name.Insecure)
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
