package mcpserver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/forgehq/forge/mcpserver/mcpservertest"
)

// TestListsArePagedWithTotals: a directory of 3,000 files comes in pages
// of DirPage entries, each note giving the total; a page past the end of
// any list says so; a 700 KB issue with long comments stays under the
// bound. On main the directory was one result of 243,040 bytes and the
// issue 724,805.
func TestListsArePagedWithTotals(t *testing.T) {
	h := mcpservertest.NewWorld(t)
	files := map[string]string{}
	for i := range 3000 {
		files[fmt.Sprintf("many/file%04d.go", i)] = "package many\n"
	}
	if _, err := h.Srv.CommitFiles("alice/demo", "", files, "3,000 files"); err != nil {
		t.Fatal(err)
	}
	huge := strings.Repeat("A long report line. ", 35000) // 700,000 bytes
	if _, err := h.Srv.CreateIssue("alice/demo", "carol", "Huge", huge); err != nil {
		t.Fatal(err)
	}
	for range 12 {
		if _, err := h.Srv.AddComment("alice/demo", 1, "carol", huge[:60000]); err != nil {
			t.Fatal(err)
		}
	}
	s := serve(t, h)
	var d1, d6, d7 Contents
	raw := s.Call("repo_contents", map[string]any{"path": "many"}, &d1)
	s.Call("repo_contents", map[string]any{"path": "many", "page": 6}, &d6)
	s.Call("repo_contents", map[string]any{"path": "many", "page": 7}, &d7)
	if len(raw) > MaxResult || len(d1.Entries) != DirPage || d1.Note != "truncated: results 1-500 of 3000 shown; ask with page 2 for more" {
		t.Errorf("page 1: %d bytes, %d entries, note %q", len(raw), len(d1.Entries), d1.Note)
	}
	if len(d6.Entries) != 500 || d6.Entries[499].Name != "file2999.go" || d6.Note != "results 2501-3000 of 3000 shown, the last page" {
		t.Errorf("page 6: %d entries, note %q", len(d6.Entries), d6.Note)
	}
	if len(d7.Entries) != 0 || d7.Note != "page 7 is past the end: the list holds 3000 results, 500 a page (the last page is 6)" {
		t.Errorf("page 7: %d entries, note %q", len(d7.Entries), d7.Note)
	}
	var one IssueList
	s.Call("issues_list", nil, &one)
	if len(one.Issues) != 1 || one.Note != "" {
		t.Errorf("one page of one: %q", one.Note)
	}
	s.Call("issues_list", map[string]any{"page": 2}, &one)
	if len(one.Issues) != 0 || !strings.HasPrefix(one.Note, "page 2 is past the end: the list holds 1 results") {
		t.Errorf("past the end: %q", one.Note)
	}
	var is Issue
	raw = s.Call("issue_view", map[string]any{"number": 1}, &is)
	if len(raw) > MaxResult || !strings.HasSuffix(is.Body, "[truncated: 700000 bytes in all]") {
		t.Errorf("issue_view: %d bytes, note %q", len(raw), is.Note)
	}
}
