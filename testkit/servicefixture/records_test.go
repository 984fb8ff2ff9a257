package servicefixture_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/forgehq/forge/testkit/clitest"
	"github.com/forgehq/forge/testkit/servicefixture"
)

// TestFiltersHoldOnTheClient: a service that ignores pr list's state and
// run list's status: forge keeps only the matching rows.
func TestFiltersHoldOnTheClient(t *testing.T) {
	_, h := against(t, servicefixture.Options{IgnoreFilters: true})
	for _, c := range []struct {
		args      []string
		want, not []string
	}{
		{[]string{"pr", "list"}, []string{"change 3"}, []string{"change 2", "change 1"}},
		{[]string{"pr", "list", "--state", "merged"}, []string{"change 2"}, []string{"change 3", "change 1"}},
		{[]string{"pr", "list", "--state", "closed"}, []string{"change 2", "change 1"}, []string{"change 3"}},
		{[]string{"run", "list", "--status", "failure"}, []string{"Build 2"}, []string{"Build 3", "Build 1"}},
		{[]string{"run", "list", "--status", "success"}, []string{"Build 3", "Build 1"}, []string{"Build 2"}},
	} {
		r := h.Run(clitest.Run{}, c.args...)
		for _, w := range c.want {
			if !strings.Contains(r.Out, w) {
				t.Errorf("forge %s: %q missing from\n%s", strings.Join(c.args, " "), w, r.Output())
			}
		}
		for _, n := range c.not {
			if strings.Contains(r.Out, n) {
				t.Errorf("forge %s: %q shown though it does not match:\n%s", strings.Join(c.args, " "), n, r.Output())
			}
		}
	}
}

// TestOtherFieldNames: runs, jobs, pull requests, releases and invites
// with Gitea's and GitLab's names fill forge's columns; no row is empty.
func TestOtherFieldNames(t *testing.T) {
	_, h := against(t, servicefixture.Options{Style: servicefixture.Alt})
	expectRows(t, h, []rowsCase{
		{[]string{"run", "list"}, []string{`(?m)^completed\tfailure\tBuild 2\t\tmain\tpush\t2\t`, `(?m)^completed\tsuccess\tBuild 3\t`}},
		{[]string{"run", "view", "2"}, []string{`(?m)^conclusion:\tfailure$`, `0000000000000000000000000000000000000002`, `carol`, `(?m)^job:\t21\t21\tcompleted\tfailure`}},
		{[]string{"run", "logs", "2"}, []string{`(?m)^21\t.*FAIL.* example.com/app`}},
		{[]string{"pr", "list", "--state", "all"}, []string{`(?m)^3\tchange 3\ttopic-3\topen\t`, `(?m)^2\tchange 2\ttopic-2\tmerged\t`, `(?m)^1\tchange 1\ttopic-1\tclosed\t`}},
		{[]string{"release", "list"}, []string{`(?m)^Release v1.1.0-rc1\tPre-release\tv1.1.0-rc1\t`, `(?m)^Release v1.0.0\tLatest\tv1.0.0\t`}},
		{[]string{"admin", "invite", "list"}, []string{`(?m)^invite 801\t\t\t\tpending\t`, `(?m)^dave@example.com\tdave@example.com\t\t\taccepted\talice\t`}},
	})
}

// rowsCase is a command and regexps its stdout must match.
type rowsCase struct {
	args []string
	want []string
}

// expectRows runs each command: it must exit 0, its stdout match each
// regexp, and no row of it be empty.
func expectRows(t *testing.T, h *clitest.Harness, cases []rowsCase) {
	t.Helper()
	for _, c := range cases {
		r := h.Run(clitest.Run{}, c.args...)
		if r.Code != 0 {
			t.Errorf("forge %s: exit %d\n%s", strings.Join(c.args, " "), r.Code, r.Output())
			continue
		}
		for _, w := range c.want {
			if !regexp.MustCompile(w).MatchString(r.Out) {
				t.Errorf("forge %s: no match for %q in\n%s", strings.Join(c.args, " "), w, r.Out)
			}
		}
		if regexp.MustCompile(`(?m)^\t*$`).MatchString(strings.TrimRight(r.Out, "\n")) {
			t.Errorf("forge %s printed an empty row:\n%q", strings.Join(c.args, " "), r.Out)
		}
	}
}

// TestStatusOnlyJobFailed: a job that reports only status "failure" (no
// conclusion) is failed for run explain too: its log goes to the agent.
func TestStatusOnlyJobFailed(t *testing.T) {
	s, h := against(t, servicefixture.Options{Style: servicefixture.Alt})
	h.Env["AGENT_URL"], h.Env["AGENT_API_KEY"] = s.URL, "agk_fixturekey0123456789"
	h.Env["FORGE_DEBUG"] = "1"
	r := h.Run(clitest.Run{}, "run", "explain", "2")
	if !strings.Contains(r.Err, "@@ job 21 (failure): log @@") || !strings.Contains(r.Err, "FAIL example.com/app") {
		t.Errorf("run explain sent no log of the failed job:\n%s", r.Err)
	}
}

// TestUsageTimestampWithoutZone: the agent's usage with a timestamp
// without a zone is read by the REST side's parser (as UTC).
func TestUsageTimestampWithoutZone(t *testing.T) {
	s, h := against(t, servicefixture.Options{})
	h.Env["AGENT_URL"], h.Env["AGENT_API_KEY"] = s.URL, "agk_fixturekey0123456789"
	r := h.Run(clitest.Run{TTY: true}, "chat", "usage")
	if !strings.Contains(r.Out, "2026-12-01 00:00 UTC") {
		t.Errorf("chat usage on a terminal:\n%s", r.Output())
	}
	r = h.Run(clitest.Run{}, "chat", "usage")
	if !strings.Contains(r.Out, "period_resets\t2026-12-01T00:00:00Z\n") {
		t.Errorf("chat usage piped:\n%s", r.Output())
	}
}

// TestStringIDs: a service sending the IDs of runs and jobs as JSON
// strings: run list and run view show them, run logs reads the jobs' logs
// by them.
func TestStringIDs(t *testing.T) {
	_, h := against(t, servicefixture.Options{StringIDs: true})
	expectRows(t, h, []rowsCase{
		{[]string{"run", "list"}, []string{`(?m)^completed\tfailure\tBuild 2\tCI\tmain\tpush\t2\t`, `(?m)^completed\tsuccess\tBuild 3\tCI\tmain\tpush\t3\t`}},
		{[]string{"run", "view", "2"}, []string{`(?m)^id:\t2$`, `(?m)^job:\t21\ttest\tcompleted\tfailure`}},
		{[]string{"run", "logs", "2"}, []string{`(?m)^test\t.*FAIL.* example.com/app`}},
	})
}

// TestServiceTokensInLogsMasked: job logs holding the service's own CI
// token and key forms, which forge never held: run explain sends them
// masked, and an image digest beside them as it is.
func TestServiceTokensInLogsMasked(t *testing.T) {
	s, h := against(t, servicefixture.Options{LogTokens: true})
	h.Env["AGENT_URL"], h.Env["AGENT_API_KEY"] = s.URL, "agk_fixturekey0123456789"
	h.Env["FORGE_DEBUG"] = "1"
	r := h.Run(clitest.Run{}, "run", "explain", "2")
	if !strings.Contains(r.Err, "@@ job test (failure): log @@") {
		t.Fatalf("run explain sent no log:\n%s", r.Output())
	}
	for _, secret := range []string{servicefixture.LogToken, servicefixture.LogKey} {
		if strings.Contains(r.Err, secret) {
			t.Errorf("run explain sent %s unmasked", secret)
		}
	}
	for _, want := range []string{"vault login with vtok_ci_****", "X-Service: hsa_live_****", "pulling image " + servicefixture.LogDigest} {
		if !strings.Contains(r.Err, want) {
			t.Errorf("%q not in what run explain sent:\n%s", want, r.Err)
		}
	}
}
