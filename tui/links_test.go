package tui

import (
	"context"
	"testing"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/tui/tuitest"
)

// TestReleaseLink: on a release's page, y copies its address.
func TestReleaseLink(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	h := start(t, srv, "alice", 100, 24, Options{})
	c, _ := h.app.ctx.REST()
	rels, err := client.Collect(c.Releases.List(context.Background(), webapp, client.ListOptions{}), 0)
	if err != nil || len(rels) == 0 || rels[0].HTMLURL == "" {
		t.Fatalf("releases: %v %v", rels, err)
	}
	h.wait("alice/webapp")
	h.keys("enter")
	h.wait("Pull requests", "Releases")
	h.keys("l", "l")
	h.wait("PUBLISHED", rels[0].TagName)
	h.keys("enter")
	h.wait("esc back")
	h.keys("y")
	h.wait("Copied " + rels[0].HTMLURL + " to the clipboard.")
}
