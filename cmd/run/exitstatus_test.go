package run_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/forgehq/forge/testkit/clitest"
	"github.com/forgehq/forge/testkit/servicefixture"
)

// run view --exit-status exits 1 when the run failed, as forge counts
// failure (client.Failed): timed_out, startup_failure and cancelled do,
// skipped and neutral do not. The service here concludes runs with
// GitHub's other words.
func TestViewExitStatusFollowsFailed(t *testing.T) {
	conclusions := []string{"success", "skipped", "neutral", "timed_out", "startup_failure", "cancelled", "failure"}
	want := []int{0, 0, 0, 1, 1, 1, 1}
	s := servicefixture.New(t, servicefixture.Options{Conclusions: conclusions})
	h := clitest.Against(t, s.BaseURL, s.Token)
	for i, c := range conclusions {
		id := fmt.Sprint(i + 1)
		if r := h.Run(clitest.Run{}, "run", "view", id, "-R", "alice/app", "--exit-status"); r.Code != want[i] {
			t.Errorf("run %s, %s: exit %d, want %d\n%s", id, c, r.Code, want[i], r.Output())
		}
		// Without the flag, the run is shown and forge exits 0.
		if r := h.Run(clitest.Run{}, "run", "view", id, "-R", "alice/app"); r.Code != 0 {
			t.Errorf("run %s, %s, without --exit-status: exit %d\n%s", id, c, r.Code, r.Output())
		}
	}
}

// run view --log-failed prints the log of a job that broke in any way
// (client.Broke: timed_out too), not of one that was cancelled.
func TestViewLogFailedReadsBroke(t *testing.T) {
	s := servicefixture.New(t, servicefixture.Options{Conclusions: []string{"timed_out", "cancelled"}})
	h := clitest.Against(t, s.BaseURL, s.Token)
	r := h.Run(clitest.Run{}, "run", "view", "1", "-R", "alice/app", "--log-failed")
	if r.Code != 0 || !strings.Contains(r.Out, "test\tgo test ./...") {
		t.Errorf("timed_out job: exit %d, no log\n%s", r.Code, r.Output())
	}
	r = h.Run(clitest.Run{}, "run", "view", "2", "-R", "alice/app", "--log-failed")
	if r.Code != 0 || r.Out != "" || !strings.Contains(r.Err, "No failed jobs in run 2 (completed (cancelled))") {
		t.Errorf("cancelled job: exit %d\n%s", r.Code, r.Output())
	}
}

// The messages that name a run by its workflow (runTitle) show the
// service's name made safe on a terminal: run watch on a finished run
// printed it raw on stderr (as did run explain on a successful run and
// run watch when the run it followed ended).
func TestRunTitleIsSanitized(t *testing.T) {
	s := servicefixture.New(t, servicefixture.Options{Hostile: true, Conclusions: []string{"success"}})
	h := clitest.Against(t, s.BaseURL, s.Token)
	r := h.Run(clitest.Run{TTY: true, ErrTTY: true}, "run", "watch", "1", "-R", "alice/app")
	if r.Code != 0 || !strings.Contains(r.Err, "Run CI^[]0;pwned") || strings.ContainsAny(r.Output(), "\x07\u009b\u202e") || strings.Contains(r.Output(), "\x1b]") {
		t.Errorf("exit %d\n%q", r.Code, r.Output())
	}
}

// run watch --exit-status exits as run view --exit-status does
// (client.Failed): a skipped or neutral run is no failure. It exited 1
// for anything but success.
func TestWatchExitStatusFollowsFailed(t *testing.T) {
	conclusions := []string{"success", "skipped", "neutral", "timed_out", "cancelled"}
	want := []int{0, 0, 0, 1, 1}
	s := servicefixture.New(t, servicefixture.Options{Conclusions: conclusions})
	h := clitest.Against(t, s.BaseURL, s.Token)
	for i, c := range conclusions {
		id := fmt.Sprint(i + 1)
		if r := h.Run(clitest.Run{}, "run", "watch", id, "-R", "alice/app", "--exit-status"); r.Code != want[i] {
			t.Errorf("run %s, %s: exit %d, want %d\n%s", id, c, r.Code, want[i], r.Output())
		}
	}
}

// run explain, run view --explain and run watch --exit-status --explain
// ask the agent only about a run that failed (client.Failed). On a
// skipped or neutral run they say so on stderr and exit 0 without asking;
// no agent is configured here, so asking shows as exit 4. explain asked
// about a skipped run.
func TestExplainOnlyWhenFailed(t *testing.T) {
	conclusions := []string{"skipped", "neutral", "cancelled", "timed_out"}
	failed := []bool{false, false, true, true}
	s := servicefixture.New(t, servicefixture.Options{Conclusions: conclusions})
	h := clitest.Against(t, s.BaseURL, s.Token)
	for i, c := range conclusions {
		id := fmt.Sprint(i + 1)
		for _, args := range [][]string{
			{"run", "explain", id, "-R", "alice/app"},
			{"run", "view", id, "-R", "alice/app", "--explain"},
			{"run", "watch", id, "-R", "alice/app", "--exit-status", "--explain"},
		} {
			r := h.Run(clitest.Run{}, args...)
			cmd := strings.Join(args, " ")
			if failed[i] {
				if r.Code != 4 || !strings.Contains(r.Err, "agent API key") {
					t.Errorf("%s (%s): exit %d, did not ask the agent\n%s", cmd, c, r.Code, r.Output())
				}
				continue
			}
			if r.Code != 0 || strings.Contains(r.Err, "agent") {
				t.Errorf("%s (%s): exit %d, want 0 without asking\n%s", cmd, c, r.Code, r.Output())
			}
			// watch --explain says nothing more on a run that did not fail.
			if args[1] != "watch" && (strings.Count(r.Err, "\n") != 1 || !strings.Contains(r.Err, "did not fail ("+c+"); there is no failure to explain")) {
				t.Errorf("%s (%s): want one line on stderr saying it did not fail\n%s", cmd, c, r.Output())
			}
		}
	}
}
