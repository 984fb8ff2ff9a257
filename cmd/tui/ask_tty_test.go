package tui_test

import (
	"strings"
	"testing"

	"github.com/forgehq/forge/testkit/tmuxtest"
)

// TestAskAboutFailedJob runs forge tui on a real terminal against the
// demo world: the CI tab's filter finds the failed run by its status, the
// run opens on its failed job, the job's log is searched, and a (ask the
// agent) opens the chat with the run attached; the reference agent's
// reply names the failed job, so the context arrived.
func TestAskAboutFailedJob(t *testing.T) {
	x, srv, token := tmuxtest.Demo(t, "ask")
	x.Start(100, 30, tmuxtest.Env(t, srv, token), "", "tui", "-R", "alice/webapp", "--tab", "ci")

	x.Shows("Workflow runs", "CI on fix-empty-body")
	x.Keys("/", "fail", "Enter")
	s := x.Shows("/fail", "1 match")
	if strings.Contains(s, "CI on main") {
		t.Errorf("/fail keeps a run that did not fail:\n%s", s)
	}
	x.Keys("Enter")
	x.Shows("▌ ✗ test", "a ask the agent")
	x.Keys("Enter")
	x.Shows("test · failure", "##[error]Process completed with exit code 1.")
	x.Keys("/", "exit code", "Enter")
	x.Shows("match 1 of 1")
	x.Keys("a")
	x.Shows("Attached run:", "Why did the job test fail?")
	x.Keys("Enter")
	// The reply is wrapped at the terminal's width: read it as words.
	s = x.WaitFor("the reply naming the failed job", func(s string) bool {
		words := strings.Join(strings.Fields(s), " ")
		return strings.Contains(words, "You attached run:") && strings.Contains(words, "The run failed in job test;")
	})
	if !strings.Contains(s, "Agent chat") {
		t.Errorf("not on the chat tab:\n%s", s)
	}
}
