package tui

import (
	"strings"
	"testing"

	"github.com/forgehq/forge/tui/tuitest"
)

// TestChatBackDoesNotArmEnter: a message left in the chat's input is not
// sent by the first enter after the tab comes back into sight (nor after
// a new launch): that enter says so, the second sends.
func TestChatBackDoesNotArmEnter(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	env := tuitest.Env(t, srv, "alice")
	h := startEnv(t, srv, env, 100, 30, Options{Tab: tabChat})
	h.wait("model ref-1 (default)")
	h.typeText("Left for later")
	h.keys("tab")
	h.wait("alice (Alice Martin)")
	h.keys("shift+tab")
	h.wait("› Left for later")
	h.keys("enter")
	s := h.wait("enter again sends it")
	if strings.Contains(s, "reply ") || strings.Contains(s, "replying") {
		t.Fatalf("the first enter after coming back sent the message:\n%s", s)
	}
	h.keys("enter")
	h.wait("reply ", "tokens")

	// Kept from the last launch: the same.
	h.typeText("Kept across launches")
	h.wait("› Kept across launches")
	h.tm.Quit()
	again := startEnv(t, srv, env, 100, 30, Options{Tab: tabChat})
	again.wait("› Kept across launches", "This is the conversation of your last session")
	again.keys("enter")
	again.wait("enter again sends it")
	if n := strings.Count(again.plain(), "Kept across launches"); n != 1 {
		t.Fatalf("the kept message was sent by the first enter:\n%s", again.plain())
	}
}

// TestKeptNoticeNamesTheAgentOnce: the notice of what the last launch
// kept names the agent of a kept conversation, and is said once though
// the account, known late (FORGE_TOKEN), asks again.
func TestKeptNoticeNamesTheAgentOnce(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	env := tuitest.Env(t, srv, "alice")
	h := startEnv(t, srv, env, 120, 30, Options{Tab: tabChat})
	h.wait("model ref-1 (default)")
	h.typeText("Hello")
	h.keys("enter")
	h.wait("reply ", "tokens")
	h.tm.Quit()
	again := startEnv(t, srv, env, 120, 30, Options{Tab: tabChat})
	host := strings.TrimPrefix(srv.URL(), "http://")
	again.wait("Kept from your last session: the chat conversation with " + host + ".")
	again.tm.Send(keptMsg{keep: again.app.ctx.Keep, text: "Kept from your last session: again."})
	again.settled()
	if strings.Contains(again.plain(), "again.") {
		t.Fatalf("the kept notice was said twice:\n%s", again.plain())
	}
}
