package tui

import (
	"regexp"
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

// TestChatUsageAfterInterruptedReply: after a reply is stopped, the
// status bar's usage is asked again: the service charged the prompt.
//
// The usage is matched in the status bar as a whole number ("· N/1,000,000
// used"): a count ending in 0 ("10/1,000,000 used") holds the text
// "0/1,000,000 used" too.
func TestChatUsageAfterInterruptedReply(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	release := srv.Agent().HoldAfter(3) // esc comes in the middle of the reply
	defer release()
	h := start(t, srv, "alice", 100, 30, Options{Tab: tabChat})
	h.wait("model ref-1 (default)", "· 0/1,000,000 used (pro)")
	h.typeText("Tell me more")
	h.keys("enter")
	h.wait("replying · esc stops", "You asked")
	h.keys("esc")
	h.wait("(reply interrupted")
	release()
	// The prompt was charged before the reply began: the status bar
	// says so without waiting for /usage.
	h.gone("· 0/1,000,000 used")
	h.typeText("/usage")
	h.keys("enter")
	s := h.wait("tokens used (tier pro)")
	m := regexp.MustCompile(`(\d[\d,]*)/1,000,000 tokens used`).FindStringSubmatch(s)
	if m == nil || m[1] == "0" {
		t.Fatalf("/usage says:\n%s", s)
	}
	h.wait("· " + m[1] + "/1,000,000 used (pro)")
}

// TestReopenedIssueTakesItsPlace: an issue closed and reopened comes
// back to the open list where a load puts it (newest first), not on top.
func TestReopenedIssueTakesItsPlace(t *testing.T) {
	t.Parallel()
	h := start(t, tuitest.Server(t), "alice", 80, 24, Options{Repo: tuitest.Webapp, Tab: tabIssues})
	h.wait("#2 Document the deploy process")
	h.keys("j", "j", "j", "enter")
	h.wait("Document the deploy process #2")
	h.keys("x")
	h.wait("Close #2")
	h.keys("y")
	h.wait("● closed")
	h.keys("o")
	h.wait("● open")
	h.keys("esc")
	s := h.wait("Open issues · 4 issues")
	if i, j := strings.Index(s, "#6 Support"), strings.Index(s, "#2 Document"); i < 0 || j < i {
		t.Errorf("#2 is not back below #6:\n%s", s)
	}
}

// TestShownAgainReadsAgain: a list shown again — its tab, or the page
// above it closed — reads again what it shows: an issue opened meanwhile
// (by another session, another shell) appears without r.
func TestShownAgainReadsAgain(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	h := start(t, srv, "alice", 100, 24, Options{Repo: tuitest.Webapp, Tab: tabIssues})
	h.wait("Support graceful shutdown")
	if _, err := srv.CreateIssue("alice/webapp", "alice", "Opened while the tab was hidden", ""); err != nil {
		t.Fatal(err)
	}
	h.keys("1")
	h.wait("Your repositories")
	h.keys("2")
	h.wait("Opened while the tab was hidden")
	h.keys("enter")
	h.wait(" › #")
	if _, err := srv.CreateIssue("alice/webapp", "alice", "Opened while a page was open", ""); err != nil {
		t.Fatal(err)
	}
	h.keys("esc")
	h.wait("Opened while a page was open")
}
