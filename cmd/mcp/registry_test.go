package mcp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/forgehq/forge/mcpserver"
	"github.com/forgehq/forge/refserver/refservertest"
	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/remote"
)

// pushed pushes one random image as alice under alice/app with tags
// (forge's environment names the reference server's registry).
func pushed(t *testing.T, h *harness, tags ...string) string {
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
	h := world(t)
	digest := pushed(t, h, "1.0", "latest")
	s := serve(t, h, "--allow-write", "--toolsets", "registry")
	var repos mcpserver.RegistryRepos
	s.call("registry_repositories", nil, &repos)
	if strings.Join(repos.Repositories, ",") != "alice/app" {
		t.Errorf("registry_repositories: %+v", repos)
	}
	var tags mcpserver.TagList
	s.call("image_tags", map[string]any{"repository": "alice/app"}, &tags)
	if len(tags.Tags) != 2 || tags.Tags[0].Name != "1.0" || tags.Tags[0].Digest != digest || tags.Tags[0].ImageSize < 4096 {
		t.Errorf("image_tags: %+v", tags)
	}
	var img mcpserver.Image
	s.call("image_manifest", map[string]any{"reference": "alice/app:1.0"}, &img)
	if img.Digest != digest || len(img.Layers) != 2 || img.Size != tags.Tags[0].ImageSize || !json.Valid([]byte(img.Manifest)) {
		t.Errorf("image_manifest: %+v", img)
	}
	var del mcpserver.Deleted
	s.call("image_tag_delete", map[string]any{"reference": "alice/app:latest"}, &del)
	s.call("image_tags", map[string]any{"repository": "alice/app"}, &tags)
	if !strings.HasSuffix(del.Deleted, "alice/app:latest") || len(tags.Tags) != 1 || tags.Tags[0].Name != "1.0" {
		t.Errorf("after image_tag_delete %+v: %+v", del, tags)
	}
	if msg := s.fail("image_tag_delete", map[string]any{"reference": "bob/app:1.0"}); !strings.Contains(msg, "bob/app") {
		t.Errorf("deleting under another namespace: %q", msg)
	}
	if msg := s.fail("image_manifest", map[string]any{"reference": "alice/app:9.9"}); strings.Contains(msg, "\n") || !strings.Contains(msg, "9.9") {
		t.Errorf("unknown tag: %q", msg)
	}
}

func TestConfigSnippets(t *testing.T) {
	h := world(t)
	for client, top := range map[string]string{"claude": "mcpServers", "vscode": "servers", "cursor": "mcpServers"} {
		r := h.run("--profile", "default", "mcp", "config", "--client", client, "--toolsets", "issues,actions", "--lockdown")
		if r.Code != 0 {
			t.Fatalf("%s: exit %d: %s", client, r.Code, r.Err)
		}
		var doc map[string]map[string]struct {
			Type    string            `json:"type"`
			Command string            `json:"command"`
			Args    []string          `json:"args"`
			Env     map[string]string `json:"env"`
		}
		if err := json.Unmarshal([]byte(r.Out), &doc); err != nil {
			t.Fatalf("%s: %v in %s", client, err, r.Out)
		}
		e := doc[top]["forge"]
		if e.Command == "" || strings.Join(e.Args, " ") != "mcp serve --toolsets issues,actions --lockdown" || e.Env["FORGE_PROFILE"] != "default" {
			t.Errorf("%s: %s", client, r.Out)
		}
		if (client == "vscode") != (e.Type == "stdio") {
			t.Errorf("%s: type %q", client, e.Type)
		}
		if strings.Contains(r.Out, h.Env["FORGE_TOKEN"]) || !strings.Contains(r.Err, "Put this in ") {
			t.Errorf("%s: stdout %s stderr %s", client, r.Out, r.Err)
		}
	}
	if r := h.run("mcp", "config", "--client", "emacs"); r.Code != 2 || !strings.Contains(r.Err, "give claude, vscode or cursor") {
		t.Errorf("unknown client: %d %q", r.Code, r.Err)
	}
}
