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
