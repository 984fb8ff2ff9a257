package images

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/tuitest"
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
