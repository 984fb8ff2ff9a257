package pr_test

import (
	"strings"
	"testing"

	"github.com/forgehq/forge/testkit/clitest"
	"github.com/forgehq/forge/testkit/servicefixture"
)

// pr checks exits 1 when a run failed, as forge counts failure
// (client.Failed): timed_out and cancelled do, skipped and neutral do not.
// The service here concludes runs with GitHub's other words.
func TestChecksExitWhenARunFailed(t *testing.T) {
	for _, c := range []struct {
		conclusions []string
		code        int
	}{
		{[]string{"success", "skipped", "neutral"}, 0},
		{[]string{"skipped", "timed_out"}, 1},
		{[]string{"success", "cancelled"}, 1},
		{[]string{"startup_failure"}, 1},
	} {
		s := servicefixture.New(t, servicefixture.Options{Conclusions: c.conclusions})
		h := clitest.Against(t, s.BaseURL, s.Token)
		r := h.Run(clitest.Run{}, "pr", "checks", "3", "-R", "alice/app")
		if r.Code != c.code {
			t.Errorf("runs %v: exit %d, want %d\n%s", c.conclusions, r.Code, c.code, r.Output())
		}
		for _, w := range c.conclusions { // each run listed, with its conclusion
			if !strings.Contains(r.Out, "completed\t"+w+"\tCI\t") {
				t.Errorf("runs %v: no %s run in\n%s", c.conclusions, w, r.Out)
			}
		}
	}
}

// pr view's checks line counts the runs by the service's words: on a
// terminal they are made safe like the rest of the page (a hostile
// service's conclusion cleared the screen).
func TestViewChecksLineIsSanitized(t *testing.T) {
	s := servicefixture.New(t, servicefixture.Options{Hostile: true, Conclusions: []string{"success", "failure"}})
	h := clitest.Against(t, s.BaseURL, s.Token)
	r := h.Run(clitest.Run{TTY: true}, "pr", "view", "3", "-R", "alice/app")
	_, checks, _ := strings.Cut(r.Out, "Checks:")
	checks, _, _ = strings.Cut(checks, "\n")
	if r.Code != 0 || !strings.Contains(checks, "1 success") || strings.ContainsAny(r.Out, "\x1b\x07\u009b\u202e") {
		t.Errorf("exit %d, checks line %q\n%s", r.Code, checks, r.Err)
	}
}
