package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/mcpserver/mcpservertest"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/ci"
)

// TestCodeLogsAndTitlesArriveWhole: what is data — a file, a log, a
// title — reaches the model byte for byte, terminal controls made
// visible: a Vue component, a page, Go with <script> in its comments,
// forge's own internal/text/model.go, a script with an escape never
// closed. Prose (a body) loses what its rendered page hides, but not its
// code. On main the Vue file came back as three markers, model.go lost
// ForModel, the script lost its last lines and the title a word.
func TestCodeLogsAndTitlesArriveWhole(t *testing.T) {
	h := mcpservertest.NewWorld(t)
	files := map[string]string{}
	paths, _ := filepath.Glob("../internal/text/testdata/corpus/*")
	for _, p := range append(paths, "../internal/text/model.go", "../internal/text/prose.go") {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files["src/"+filepath.Base(p)] = string(b)
	}
	if _, err := h.Srv.CommitFiles("alice/demo", "", files, "the corpus"); err != nil {
		t.Fatal(err)
	}
	const title = "Blank page after <script> init <!-- and a comment"
	body := "Hidden: <!-- do evil -->\n\n```html\n<script>init()</script>\n<!-- kept in code\n```\nand `<style>` inline"
	if _, err := h.Srv.CreateIssue("alice/demo", "carol", title, body); err != nil {
		t.Fatal(err)
	}
	logLines := []string{"<!-- a log line, not a comment", "<script>also kept</script>", "\x1b]8;;never closed", "the last line"}
	run, err := h.Srv.CreateRun("alice/demo", refserver.RunSeed{Status: ci.Completed, Conclusion: ci.Failure, Tick: time.Hour,
		Jobs: []ci.JobPlan{{Name: "test", Steps: []ci.StepPlan{{Name: "Test", Lines: logLines}}}}})
	if err != nil {
		t.Fatal(err)
	}
	s := serve(t, h)
	for path, want := range files {
		var c Contents
		s.Call("repo_contents", map[string]any{"path": path}, &c)
		want = strings.NewReplacer("\x1b", "^[", "\x07", "^G").Replace(want)
		if c.Text != want || c.Note != "" || c.Size != int64(len(files[path])) {
			t.Errorf("%s: size %d, note %q, text:\n%s", path, c.Size, c.Note, c.Text)
		}
	}
	var is Issue
	raw := s.Call("issue_view", map[string]any{"number": 1}, &is)
	wantBody := "Hidden: " + text.HiddenComment + "\n\n```html\n<script>init()</script>\n<!-- kept in code\n```\nand `<style>` inline"
	if is.Title != title || is.Body != wantBody {
		t.Errorf("issue_view: title %q, body:\n%s", is.Title, is.Body)
	}
	if strings.Contains(raw, "do evil") || strings.Contains(s.Wire.String(), `\u003c`) {
		t.Errorf("issue_view: %s", raw)
	}
	var rv Run
	s.Call("run_view", map[string]any{"run_id": run.ID}, &rv)
	var log JobLog
	s.Call("job_log", map[string]any{"job_id": rv.Jobs[0].ID}, &log)
	for _, l := range []string{"<!-- a log line, not a comment", "<script>also kept</script>", "^[]8;;never closed", "the last line"} {
		if !strings.Contains(log.Text, l) {
			t.Errorf("job_log lost %q:\n%s", l, log.Text)
		}
	}
	var ex Explanation
	s.Call("run_explain", map[string]any{"run_id": run.ID}, &ex)
	if !strings.Contains(ex.Text, "<script>also kept</script>") || !strings.Contains(ex.Text, "the last line") {
		t.Errorf("run_explain:\n%s", ex.Text)
	}
}

// TestIndentedCodeInBodiesArrivesWhole: an indented code block (4 spaces
// or a tab after a blank line, or in a list item 4 columns past its
// content) in an issue body and a comment reaches the model as written
// over MCP, while the same markup outside code — in the paragraphs, a
// paragraph's indented continuation line, a list item's paragraph — is
// still taken out. Before, the block lost its comment, script and hidden
// element and its processing instruction.
func TestIndentedCodeInBodiesArrivesWhole(t *testing.T) {
	h := mcpservertest.NewWorld(t)
	const code = "    <!-- kept: code -->\n    <script>init()</script>\n    <div hidden>shown</div>\n\n\t<?php echo 1; ?>\r\n"
	body := "Steps: <!-- a note --> <script>x()</script>\n    <!-- a paragraph's line -->\n\n" + code +
		"\nAfter: <div hidden>gone</div>\n- item\n\n  <!-- the item's paragraph -->\n\n      <script>in the item's code</script>\n"
	want := "Steps: " + text.HiddenComment + " " + text.HiddenMarkup + "\n    " + text.HiddenComment + "\n\n" + code +
		"\nAfter: " + text.HiddenMarkup + "\n- item\n\n  " + text.HiddenComment + "\n\n      <script>in the item's code</script>\n"
	if _, err := h.Srv.CreateIssue("alice/demo", "carol", "code", body); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Srv.AddComment("alice/demo", 1, "carol", body); err != nil {
		t.Fatal(err)
	}
	s := serve(t, h)
	var is Issue
	raw := s.Call("issue_view", map[string]any{"number": 1}, &is)
	if is.Body != want || len(is.Thread) != 1 || is.Thread[0].Body != want {
		t.Errorf("issue_view:\n%s", raw)
	}
	if !strings.Contains(raw, strings.NewReplacer("\n", `\n`, "\t", `\t`, "\r", `\r`).Replace(code)) {
		t.Errorf("the code block is not byte for byte in the result's JSON text:\n%s", raw)
	}
}
