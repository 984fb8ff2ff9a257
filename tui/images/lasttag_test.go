package images

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/tuitest"
	v1 "github.com/google/go-containerregistry/pkg/v1"
)

// TestDeleteLastTag: deleting the manifest of a repository's last tag (as
// where the registry cannot delete a tag alone) says it worked and the
// row goes, even after r: the registry no longer knowing the emptied
// repository is not an error.
func TestDeleteLastTag(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	tuitest.Push(t, srv, "alice", "alice/solo:1.0", tuitest.Image(t, "alone", "linux", "amd64"))
	ctx := tuitest.Context(t, srv, "alice")
	tags := NewTags(ctx, "alice/solo")
	d := tuitest.Drive(t, tags, 100, 20)
	d.UntilView("1 tag", "1.0")

	// The plan a registry without tag deletion leads to.
	reg, _ := ctx.Registry()
	ref, _ := reg.ParseReference("alice/solo:1.0")
	plan, err := reg.PlanDelete(context.Background(), ref)
	if err != nil {
		t.Fatal(err)
	}
	d.Send(planMsg{owner: tags.ID(), ref: "alice/solo:1.0", plan: plan, noTagDelete: true})
	d.UntilView("The registry cannot delete a tag alone. Delete alice/solo:1.0?", "[y/N]")
	d.Key("y")
	d.Until("the notice", func() bool {
		return d.Seen(func(m tea.Msg) bool {
			s, ok := m.(common.StatusMsg)
			return ok && s.Text == "Deleted the manifest with the tag 1.0."
		})
	})
	v := d.UntilView("0 tags", "No tags: the repository is empty.")
	if strings.Contains(v, "1.0") {
		t.Errorf("the deleted tag is still listed:\n%s", v)
	}
	d.Key("r")
	d.Until("the reload", func() bool { return !tags.Loading() })
	v = d.UntilView("0 tags", "No tags: the repository is empty.")
	if strings.Contains(v, "1.0") {
		t.Errorf("the deleted tag is back after r:\n%s", v)
	}
	if d.Seen(func(m tea.Msg) bool { s, ok := m.(common.StatusMsg); return ok && s.Err }) {
		t.Error("an error was shown")
	}
}

// TestTagSizeIsTheImages: SIZE is the image's (config and layers), not
// its manifest's; an index's is its images' together.
func TestTagSizeIsTheImages(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	img := tuitest.Image(t, strings.Repeat("layer bytes ", 1000), "linux", "amd64")
	tuitest.Push(t, srv, "alice", "alice/big:1.0", img)
	idx := tuitest.Index(t)
	tuitest.Push(t, srv, "alice", "alice/big:multi", idx)
	size := func(img v1.Image) int64 {
		m, err := img.Manifest()
		if err != nil {
			t.Fatal(err)
		}
		n := m.Config.Size
		for _, l := range m.Layers {
			n += l.Size
		}
		return n
	}
	want := size(img)
	manifest, _ := img.RawManifest()
	var multi int64
	im, _ := idx.IndexManifest()
	for _, d := range im.Manifests {
		child, _ := idx.Image(d.Digest)
		multi += size(child)
	}
	d := tuitest.Drive(t, NewTags(tuitest.Context(t, srv, "alice"), "alice/big"), 100, 20)
	v := d.UntilView("2 tags", "1.0", "multi")
	rows := 0
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, " 1.0 ") || strings.Contains(l, " multi ") {
			rows++
		}
		switch {
		case strings.Contains(l, " 1.0 ") && !strings.Contains(l, text.Bytes(want)):
			t.Errorf("1.0 should be %s (the manifest is %s):\n%s", text.Bytes(want), text.Bytes(int64(len(manifest))), l)
		case strings.Contains(l, " multi ") && !strings.Contains(l, text.Bytes(multi)):
			t.Errorf("multi should be %s:\n%s", text.Bytes(multi), l)
		}
	}
	if rows != 2 {
		t.Fatalf("the rows are not found:\n%s", v)
	}
}
