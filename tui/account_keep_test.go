package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/tui/tuitest"
)

// TestAnotherAccountStartsClean: what the TUI keeps is the account's on
// its service, not the profile's. alice's typed chat message is kept;
// logging in as carol on the same profile shows none of it, nor does a
// launch as carol; alice's next launch has it back.
func TestAnotherAccountStartsClean(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	env, _ := loggedInProfile(t, srv)
	h := startEnv(t, srv, env, 80, 24, Options{Tab: tabChat})
	h.wait("model ref-1 (default)", "used (pro)")
	h.typeText("alice's secret plan")
	h.wait("› alice's secret plan")

	// The login form, as carol.
	h.keys("esc")
	h.wait("enter/i type a message")
	h.keys("L")
	h.wait("Log in", "Username  alice")
	h.keys("tab", "ctrl+u")
	h.typeText("carol")
	h.keys("tab")
	h.typeText(refserver.DemoPassword)
	h.keys("enter")
	s := h.wait("Logged in as carol")
	if !strings.Contains(strings.Join(strings.Fields(s), " "), "The tabs start afresh for this account.") {
		t.Errorf("the notice does not say the tabs start afresh:\n%s", s)
	}
	h.wait("model ref-1 (default)", "carol@default")
	if s := h.plain(); strings.Contains(s, "secret plan") {
		t.Fatalf("carol sees alice's typed message:\n%s", s)
	}
	h.tm.Quit()
	h.tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))

	// carol's next launch: clean too; the profile now says carol.
	c := startEnv(t, srv, env, 80, 24, Options{Tab: tabChat})
	c.wait("model ref-1 (default)", "carol@default")
	if s := c.plain(); strings.Contains(s, "secret plan") || strings.Contains(s, "Kept from your last session") {
		t.Fatalf("carol's launch shows alice's keep:\n%s", s)
	}
	c.tm.Quit()
	c.tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))

	// alice again on the profile: her typed message is back.
	tok, err := srv.Token("alice")
	if err != nil {
		t.Fatal(err)
	}
	writeToken(t, env, srv, tok)
	a := startEnv(t, srv, env, 80, 24, Options{Tab: tabChat})
	a.wait("alice@default", "› alice's secret plan", "Kept from your last session: the chat message you typed.")
}
