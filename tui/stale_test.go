package tui

import (
	"strings"
	"testing"

	"github.com/forgehq/forge/tui/tuitest"
)

// TestOpenByNameForgetsItsFailure: after o fails on a name, opening
// another clears the error, and the next o starts with an empty prompt.
func TestOpenByNameForgetsItsFailure(t *testing.T) {
	t.Parallel()
	h := start(t, tuitest.Server(t), "alice", 80, 24, Options{})
	h.wait("alice/webapp")
	h.keys("o")
	h.wait("Open OWNER/NAME")
	h.typeText("alice/nope")
	h.keys("enter")
	h.wait("alice/nope: no such repository")
	h.keys("ctrl+u")
	h.typeText("alice/infra")
	h.keys("enter")
	h.wait("Repositories › alice/infra")
	h.gone("no such repository")
	h.keys("esc")
	h.wait("Your repositories")
	h.keys("o")
	s := h.wait("Open OWNER/NAME")
	if !strings.Contains(s, "any repository you may see") {
		t.Errorf("the prompt keeps the last text:\n%s", s)
	}
}

// TestAccountAfterSwitchingProfile: after P, the Account page says the
// profile was chosen with P, not by a --profile flag nobody typed.
func TestAccountAfterSwitchingProfile(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	h := start(t, srv, "alice", 100, 30, Options{Tab: tabAccount})
	writeProfiles(t, h)
	h.wait("alice (Alice Martin)")
	h.keys("P")
	h.wait("Profiles", "production")
	// Sorted: dev first.
	h.keys("enter")
	h.wait("Switched to profile dev for this session.")
	s := h.wait("alice (Alice Martin)", "Profile")
	if strings.Contains(s, "--profile") || !strings.Contains(s, "dev (chosen with P for this session)") {
		t.Errorf("the Account page after P:\n%s", s)
	}
}
