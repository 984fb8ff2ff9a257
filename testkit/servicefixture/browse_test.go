package servicefixture_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/forgehq/forge/testkit/clitest"
	"github.com/forgehq/forge/testkit/servicefixture"
)

var requestLine = regexp.MustCompile(`(?m)^> (GET|POST) `)

// TestBrowseNumberOneRead: a service numbering issues and pull requests
// together answers #3's issue read with the pull request, marked: that
// one read decides (no "both" question, no second request), and --issue
// says #3 is no issue. Numbered apart, #3 is both and takes two reads.
func TestBrowseNumberOneRead(t *testing.T) {
	s, h := against(t, servicefixture.Options{IssuesCoverPulls: true})
	r := h.Run(clitest.Run{}, "--debug", "browse", "-n", "3")
	if r.Code != 0 || strings.TrimSpace(r.Out) != s.URL+"/alice/app/pulls/3" || strings.Contains(r.Err, "both") {
		t.Errorf("exit %d\n%s", r.Code, r.Output())
	}
	if n := len(requestLine.FindAllString(r.Err, -1)); n != 1 {
		t.Errorf("%d requests, want 1:\n%s", n, r.Err)
	}
	r = h.Run(clitest.Run{}, "browse", "-n", "3", "--issue")
	if r.Code != 1 || !strings.Contains(r.Err, "#3 in alice/app is a pull request, not an issue: drop --issue") {
		t.Errorf("--issue: exit %d\n%s", r.Code, r.Output())
	}
	_, h = against(t, servicefixture.Options{})
	r = h.Run(clitest.Run{}, "--debug", "browse", "-n", "3")
	if r.Code != 0 || !strings.Contains(r.Err, "#3 is both an issue and a pull request in alice/app") || len(requestLine.FindAllString(r.Err, -1)) != 2 {
		t.Errorf("numbered apart: exit %d\n%s", r.Code, r.Output())
	}
}
