package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/tuitest"
)

// kept lists the files the keep holds under env's cache directory, with
// their modes.
func kept(t *testing.T, env map[string]string) map[string]os.FileMode {
	t.Helper()
	out := map[string]os.FileMode{}
	root := filepath.Join(env["HOME"], ".cache", "forge", "tui")
	filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			out[p] = fi.Mode().Perm()
		}
		return nil
	})
	return out
}

// TestChatCtrlCAndKeep: Ctrl-C while a reply streams stops the reply (the
// program goes on, the footer does not show the last reply's tokens);
// Ctrl-C with a conversation asks before quitting; the conversation is
// back on the next launch, from a 0600 file.
func TestChatCtrlCAndKeep(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	srv.Agent().SetChunkDelay(30 * time.Millisecond)
	env := tuitest.Env(t, srv, "alice")
	h := startEnv(t, srv, env, 80, 24, Options{Tab: tabChat})
	h.wait("model ref-1 (default)")
	srv.Agent().SetChunkDelay(0)
	h.tm.Type("Hello there")
	h.keys("enter")
	h.wait("reply 132 tokens (6 + 126)")
	// Held after 3 chunks: ctrl+c comes in the middle of the reply
	// however slow the machine.
	release := srv.Agent().HoldAfter(3)
	defer release()
	h.tm.Type("Tell me more")
	h.keys("enter")
	h.wait("replying · esc stops")
	h.keys("ctrl+c")
	s := h.wait("(reply interrupted; the part received stays in the conversation)")
	release()
	if strings.Contains(s, "reply 132 tokens") {
		t.Errorf("the footer shows the last reply's tokens after the stop:\n%s", s)
	}
	if strings.Contains(s, "Quit?") {
		t.Errorf("ctrl+c during a reply asked to quit:\n%s", s)
	}
	// The conversation is on disk already, readable by the user only.
	files := kept(t, env)
	if len(files) == 0 {
		t.Fatal("nothing kept while the program runs")
	}
	for p, mode := range files {
		if mode != 0o600 {
			t.Errorf("%s has mode %o", p, mode)
		}
	}
	h.keys("ctrl+c")
	h.wait("Quit? Kept for your next forge tui: the chat conversation. y quits, any other", "key stays")
	h.keys("n")
	h.gone("Quit?")
	h.keys("ctrl+c", "ctrl+c")
	h.tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))

	again := startEnv(t, srv, env, 80, 24, Options{Tab: tabChat})
	again.wait("› Tell me more", "(reply interrupted; the part received stays in the", "This is the conversation of your last session")
	again.keys("up")
	deadline := time.Now().Add(tuitest.Patience)
	for strings.Count(again.plain(), "› Tell me more") < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("the up arrow did not recall the last message:\n%s", again.plain())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestCommentDraftSurvives: Ctrl-C in the comment editor hides it and
// keeps the draft, as its footer says; quitting asks; the draft is on
// disk before the quit and back in the editor on the next launch.
func TestCommentDraftSurvives(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	env := tuitest.Env(t, srv, "alice")
	h := startEnv(t, srv, env, 80, 24, Options{Tab: tabIssues, Repo: tuitest.Webapp})
	h.wait("Support graceful shutdown")
	h.keys("enter")
	h.wait("Support graceful shutdown #6")
	h.keys("c")
	h.wait("esc or ctrl+c hides (the draft is kept)")
	h.tm.Type("half a thought")
	h.wait("half a thought")
	h.keys("ctrl+c")
	h.wait("The draft is kept: c brings the editor back.")
	if len(kept(t, env)) != 1 {
		t.Fatalf("the draft is not on disk: %v", kept(t, env))
	}
	h.keys("q")
	h.wait("Quit? Kept for your next forge tui: the comment draft on alice/webapp#6.")
	h.keys("y")
	h.tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))

	again := startEnv(t, srv, env, 80, 24, Options{Tab: tabIssues, Repo: tuitest.Webapp})
	again.wait("Support graceful shutdown", "Kept from your last session: the comment draft on alice/webapp#6.")
	again.keys("enter")
	// The draft is shown, the keys still the page's: the habitual c
	// continues it rather than typing a c into it.
	again.wait("Comment draft (kept) · c continues it", "half a thought", "c comment")
	again.keys("c")
	s := again.wait("Comment · ctrl+s sends", "half a thought")
	if strings.Contains(s, "chalf") || strings.Contains(s, "thoughtc") {
		t.Errorf("the c went into the draft:\n%s", s)
	}
}

// TestNewIssueDraftSurvives: the new-issue form's title and body come
// back on the next launch.
func TestNewIssueDraftSurvives(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	env := tuitest.Env(t, srv, "alice")
	h := startEnv(t, srv, env, 80, 24, Options{Tab: tabIssues, Repo: tuitest.Webapp})
	h.wait("Support graceful shutdown")
	h.keys("n")
	h.wait("New issue in alice/webapp")
	h.tm.Type("A title")
	h.keys("tab")
	h.tm.Type("and a body")
	h.wait("and a body")
	h.keys("ctrl+c")
	h.wait("Open issues")
	h.keys("ctrl+c")
	h.wait("Quit? Kept for your next forge tui: the new issue draft for alice/webapp.")
	h.keys("ctrl+c")
	h.tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))

	again := startEnv(t, srv, env, 80, 24, Options{Tab: tabIssues, Repo: tuitest.Webapp})
	again.wait("Support graceful shutdown")
	again.keys("n")
	again.wait("A title", "and a body")
}

// TestStatusStaysWithItsTab: a notice made on Images is not shown on
// Chat.
func TestStatusStaysWithItsTab(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	tuitest.Push(t, srv, "alice", "alice/app:1.0", tuitest.Image(t, "hello", "linux", "amd64"))
	h := start(t, srv, "alice", 80, 24, Options{Tab: tabImages})
	h.wait("alice/app")
	h.keys("enter")
	h.wait("alice/app · 1 tag")
	h.keys("d")
	h.wait("[y/N]")
	h.keys("n")
	h.wait("✓ Cancelled.")
	h.keys("5")
	h.wait("model ref-1")
	if s := h.plain(); strings.Contains(s, "Cancelled.") {
		t.Errorf("the Images notice shows on Chat:\n%s", s)
	}
}

// TestLongErrorShownWhole: an error longer than the status line wraps,
// every word of it on the screen.
func TestLongErrorShownWhole(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	h := start(t, srv, "alice", 80, 24, Options{})
	h.wait("alice/webapp")
	long := "the agent key's token quota is used up (1,000,000 of 1,000,000 tokens); it resets at 2026-12-01 00:00 UTC, in 10 days: see https://forge.example.com/settings/agent/keys/agk_1234/usage for the details"
	h.tm.Send(common.StatusMsg{Text: long, Err: true})
	s := h.wait("✗ the agent key's token quota")
	var joined []string
	for _, l := range strings.Split(s, "\n") {
		joined = append(joined, strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "✗")))
	}
	all := strings.Join(joined, " ")
	if !strings.Contains(all, long) {
		t.Errorf("the error is not shown whole:\n%s", s)
	}
	for i, l := range strings.Split(h.screen(), "\n") {
		if w := ansi.StringWidth(l); w != 80 {
			t.Errorf("line %d is %d wide", i, w)
		}
	}
}
