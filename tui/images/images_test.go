package images

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/testkit/disttest"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/tuitest"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/remote"
)

func TestCatalogTagsManifest(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	img := tuitest.Catalog(t, srv)
	digest, _ := img.Digest()
	ctx := tuitest.Context(t, srv, "alice")

	d := tuitest.Drive(t, NewCatalog(ctx), 80, 20)
	d.UntilView("alice/app", "alice/multi", "2 repositories")
	d.Key("enter")
	var tags *Tags
	d.Until("the tags page", func() bool {
		return d.Seen(func(m tea.Msg) bool {
			p, ok := m.(common.PushMsg)
			if ok {
				tags, _ = p.C.(*Tags)
			}
			return tags != nil
		})
	})
	td := tuitest.Drive(t, tags, 80, 20)
	short := "sha256:" + digest.Hex[:12]
	v := td.UntilView("alice/app · 2 tags", "1.0", "latest")
	if strings.Count(v, short) != 2 {
		t.Fatalf("both tags should show digest %s:\n%s", short, v)
	}

	td.Key("enter")
	var man *Manifest
	td.Until("the manifest page", func() bool {
		return td.Seen(func(m tea.Msg) bool {
			p, ok := m.(common.PushMsg)
			if ok {
				man, _ = p.C.(*Manifest)
			}
			return man != nil
		})
	})
	md := tuitest.Drive(t, man, 90, 20)
	md.UntilView("Reference alice/app:1.0", "Digest    "+digest.String(), "Platform  linux/amd64", "in 1 layer", "LAYER")

	multi := tuitest.Drive(t, NewManifest(ctx, "alice/multi", "2"), 80, 20)
	multi.UntilView("Type      OCI image index", "linux/amd64", "linux/arm64", "PLATFORM")
}

func TestDeleteAsksFirst(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	img := tuitest.Image(t, "to delete", "linux", "amd64")
	tuitest.Push(t, srv, "alice", "alice/app:1.0", img)
	tuitest.Push(t, srv, "alice", "alice/app:latest", img)
	tuitest.Push(t, srv, "alice", "alice/app:2.0", tuitest.Image(t, "to keep", "linux", "amd64"))
	ctx := tuitest.Context(t, srv, "alice")
	tags := NewTags(ctx, "alice/app")
	d := tuitest.Drive(t, tags, 100, 20)
	d.UntilView("3 tags")

	// No: nothing is deleted.
	d.Key("d")
	d.UntilView("Delete the tag alice/app:1.0? Its manifest stays, with the tag latest. [y/N]")
	if !tags.Capturing() {
		t.Fatal("the question does not take the keys")
	}
	d.Key("n")
	d.UntilView("3 tags")
	if tags.confirm.Active() {
		t.Fatal("n left the question open")
	}

	// Yes: the tag goes alone (the service's registry deletes tags);
	// latest, on the same manifest, and 2.0 stay.
	d.Key("d")
	d.UntilView("[y/N]")
	d.Key("y")
	v := d.UntilView("2 tags", "latest", "2.0")
	if strings.Contains(v, "1.0 ") {
		t.Fatalf("1.0 is still listed:\n%s", v)
	}
	reg, _ := ctx.Registry()
	r, _ := reg.ParseRepository("alice/app")
	left, _, err := reg.Tags(context.Background(), r)
	if err != nil || len(left) != 2 || left[0].Name != "2.0" || left[1].Name != "latest" {
		t.Fatalf("the registry has %v (%v)", left, err)
	}
}

func TestDeleteRefusedInAnotherNamespace(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	tuitest.Push(t, srv, "bob", "bob/tool:1", tuitest.Image(t, "bob's", "linux", "amd64"))
	if err := srv.Registry().Share("bob/tool", "alice"); err != nil {
		t.Fatal(err)
	}
	ctx := tuitest.Context(t, srv, "alice")
	tags := NewTags(ctx, "bob/tool")
	d := tuitest.Drive(t, tags, 100, 20)
	d.UntilView("1 tag")
	d.Key("d")
	d.Until("the refusal", func() bool {
		return d.Seen(func(m tea.Msg) bool {
			s, ok := m.(common.StatusMsg)
			return ok && s.Err && strings.Contains(s.Text, "bob/tool")
		})
	})
	if tags.confirm.Active() {
		t.Error("asked to delete what cannot be deleted")
	}
}

func TestCatalogNeedsLogin(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	ctx := tuitest.ContextWithout(t, srv, "alice", "FORGE_PASSWORD")
	d := tuitest.Drive(t, NewCatalog(ctx), 80, 10)
	d.UntilView("not logged in to the registry", "forge image login")
}

// A registry that cannot delete a tag alone (docker-registry answers 400):
// the tag question is followed by the manifest's, naming every tag it
// takes.
func TestDeleteTagWhereTheRegistryCannot(t *testing.T) {
	t.Parallel()
	if !disttest.Installed() {
		t.Skip("docker-registry is not installed (.ci/run installs it)")
	}
	dist, err := disttest.Start(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(dist.Close)
	img := tuitest.Image(t, "to delete", "linux", "amd64")
	for _, tag := range []string{"1.0", "latest"} {
		ref, err := name.ParseReference(dist.Host + "/alice/app:" + tag)
		if err != nil {
			t.Fatal(err)
		}
		if err := remote.Write(ref, img); err != nil {
			t.Fatal(err)
		}
	}
	srv := tuitest.Server(t)
	env := tuitest.Env(t, srv, "alice")
	env["FORGE_REGISTRY_URL"] = dist.URL
	ctx := tuitest.Context(t, srv, "alice")
	ctx.Factory = tuitest.Factory(env)
	tags := NewTags(ctx, "alice/app")
	d := tuitest.Drive(t, tags, 180, 20)
	d.UntilView("2 tags")
	d.Key("d")
	d.UntilView("Delete the tag alice/app:1.0? Its manifest stays, with the tag latest. [y/N]")
	d.Key("y")
	d.UntilView("The registry cannot delete a tag alone. Delete alice/app:1.0? It removes the manifest sha256:", "and the tags 1.0, latest. [y/N]")
	d.Key("y")
	d.UntilView("0 tags")
}
