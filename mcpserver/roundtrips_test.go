package mcpserver

import (
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/mcpserver/mcpservertest"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/ci"
)

// TestFewerRoundTrips: issues_list brings each body's first KiB on
// request (filtered and withheld as in issue_view); run_explain without a
// run ID explains the newest failed run, of a branch when given.
func TestFewerRoundTrips(t *testing.T) {
	h := mcpservertest.NewWorld(t)
	if _, err := h.Srv.CreateIssue("alice/demo", "carol", "Short", "It crashes <!-- hidden --> on start."); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Srv.CreateIssue("alice/demo", "carol", "Long", strings.Repeat("x", 5000)); err != nil {
		t.Fatal(err)
	}
	lines := func(s string) []ci.JobPlan {
		return []ci.JobPlan{{Name: "test", Steps: []ci.StepPlan{{Name: "Test", Lines: []string{s}}}}}
	}
	old, err := h.Srv.CreateRun("alice/demo", refserver.RunSeed{Branch: "dev", Status: ci.Completed, Conclusion: ci.Failure, Tick: time.Hour, Jobs: lines("FAIL: on dev")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Srv.CreateRun("alice/demo", refserver.RunSeed{Status: ci.Completed, Conclusion: ci.Failure, Tick: time.Hour, Jobs: lines("FAIL: on main")}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Srv.CreateRun("alice/demo", refserver.RunSeed{Status: ci.Completed, Tick: time.Hour}); err != nil {
		t.Fatal(err)
	}
	s := serve(t, h)
	var list, plain IssueList
	s.Call("issues_list", map[string]any{"bodies": true}, &list)
	s.Call("issues_list", nil, &plain)
	ex := map[string]string{}
	for _, is := range list.Issues {
		ex[is.Title] = is.Excerpt
	}
	if ex["Short"] != "It crashes [hidden HTML comment removed] on start." || !strings.HasSuffix(ex["Long"], " [truncated: 5000 bytes in all]") ||
		len(ex["Long"]) > ExcerptBytes+40 || plain.Issues[0].Excerpt != "" {
		t.Errorf("issues_list bodies: %q", ex)
	}
	var newest, dev Explanation
	s.Call("run_explain", nil, &newest)
	s.Call("run_explain", map[string]any{"branch": "dev"}, &dev)
	if !strings.Contains(newest.Text, "FAIL: on main") || dev.RunID != old.ID || !strings.Contains(dev.Text, "FAIL: on dev") {
		t.Errorf("run_explain: newest %d %q; dev %d", newest.RunID, newest.Text, dev.RunID)
	}
	if msg := s.Fail("run_explain", map[string]any{"branch": "nowhere"}); !strings.HasPrefix(msg, "no failed run on nowhere among the newest") {
		t.Errorf("no failed run: %q", msg)
	}
}

// TestFieldsTrimWideLists: fields keeps only the named fields of each
// record of issues_list, prs_list and runs_list; the note stays.
func TestFieldsTrimWideLists(t *testing.T) {
	h := mcpservertest.NewWorld(t)
	for range 31 {
		if _, err := h.Srv.CreateIssue("alice/demo", "carol", "An issue", "body"); err != nil {
			t.Fatal(err)
		}
	}
	s := serve(t, h)
	full := s.Call("issues_list", nil, nil)
	raw := s.Call("issues_list", map[string]any{"fields": []string{"number", "title"}}, nil)
	if !strings.Contains(raw, `{"number":31,"title":"An issue"}`) || strings.Contains(raw, `"author"`) || !strings.Contains(raw, `"note":"truncated: results 1-30`) ||
		len(raw) >= len(full)/2 {
		t.Errorf("issues_list with fields (%d bytes, %d without): %s", len(raw), len(full), raw)
	}
}
