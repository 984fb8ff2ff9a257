package status_test

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/forgehq/forge/testkit/clitest"
	"github.com/forgehq/forge/testkit/servicefixture"
)

// forge status lists the runs that failed by themselves (client.Broke):
// a timed_out or startup_failure run as a failure's, not one cancelled,
// skipped or neutral. The service here concludes runs with GitHub's other
// words; on a terminal each is marked and worded as forge run list does.
func TestStatusListsRunsThatBroke(t *testing.T) {
	s := servicefixture.New(t, servicefixture.Options{Repos: 1, Issues: 1,
		Conclusions: []string{"success", "timed_out", "cancelled", "startup_failure", "skipped", "neutral", "failure"}})
	h := clitest.Against(t, s.BaseURL, s.Token)
	r := h.Run(clitest.Run{}, "status", "--json", "kind,number", "--jq", `.[] | select(.kind == "run") | .number`)
	if r.Code != 0 {
		t.Fatalf("exit %d\n%s", r.Code, r.Output())
	}
	got := strings.Fields(r.Out)
	sort.Strings(got)
	if strings.Join(got, " ") != "2 4 7" {
		t.Errorf("runs listed %q, want 2, 4 and 7 (timed_out, startup_failure, failure)", got)
	}
	r = h.Run(clitest.Run{TTY: true}, "status")
	for _, w := range []string{`(?m)^  ✗ alice/app  Build 2 \(run 2, main, timed_out\) `, `(?m)^  ✗ alice/app  Build 4 \(run 4, main, startup_failure\) `, `(?m)^  ✗ alice/app  Build 7 \(run 7, main, failure\) `} {
		if !regexp.MustCompile(w).MatchString(r.Out) {
			t.Errorf("no match for %q in\n%s", w, r.Out)
		}
	}
	if strings.Contains(r.Out, "cancelled") || strings.Contains(r.Out, "Build 3") {
		t.Errorf("a cancelled run listed as failed:\n%s", r.Out)
	}
}
