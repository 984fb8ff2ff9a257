package mcpserver

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/mcpserver/mcpservertest"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/ci"
)

// BenchmarkAssistantTasks measures, for the five things an assistant is
// asked most, the tool calls it makes and the bytes it reads (the
// results' JSON text, and the JSON-RPC bytes on the wire), in a world
// the size of a small project: a failed run of 2 jobs with 1,000-line
// logs, 30 open issues with bodies, a pull request touching 5 files, 600
// files, 2 images of 3 tags.
//
//	go test ./mcpserver -run XXX -bench AssistantTasks -benchtime 1x
func BenchmarkAssistantTasks(b *testing.B) {
	h := mcpservertest.NewWorld(b)
	files := map[string]string{}
	for i := range 600 {
		files[fmt.Sprintf("pkg%02d/file%03d.go", i%20, i)] = fmt.Sprintf("package pkg%02d\n\n// F%03d does its part.\nfunc F%03d() int { return %d }\n", i%20, i, i, i)
	}
	files["pkg07/config.go"] = "package pkg07\n\n// ParseConfig reads the configuration.\nfunc ParseConfig(b []byte) error {\n\treturn nil\n}\n"
	_, err := h.Srv.CommitFiles("alice/demo", "", files, "600 files")
	check(b, err)
	for i := range 30 {
		_, err := h.Srv.CreateIssue("alice/demo", "carol", fmt.Sprintf("Issue %d: something is off", i), strings.Repeat(fmt.Sprintf("Details of issue %d, with steps to reproduce. ", i), 25))
		check(b, err)
	}
	change := map[string]string{}
	for i := range 5 {
		change[fmt.Sprintf("pkg%02d/file%03d.go", i, i)] = fmt.Sprintf("package pkg%02d\n\n// F%03d does its part, better.\nfunc F%03d() int { return %d + 1 }\n", i, i, i, i)
	}
	h.Push(mcpservertest.Demo, "main", "better", change, "Make every F better")
	pr, err := h.Srv.CreatePull("alice/demo", refserver.PullSeed{Title: "Better", Author: "carol", Head: "better", Base: "main"})
	check(b, err)
	var log []string
	for i := range 1000 {
		log = append(log, fmt.Sprintf("=== RUN   TestStep%d\n--- PASS: TestStep%d (0.00s)", i, i))
	}
	log = append(log, "--- FAIL: TestParseConfig (0.01s)", "    config_test.go:12: want nil, got EOF", "FAIL")
	_, err = h.Srv.CreateRun("alice/demo", refserver.RunSeed{Status: ci.Completed, Conclusion: ci.Failure, Tick: time.Hour,
		Jobs: []ci.JobPlan{{Name: "build", Steps: []ci.StepPlan{{Name: "Build", Lines: log[:1000]}}}, {Name: "test", Steps: []ci.StepPlan{{Name: "Test", Lines: log}}}}})
	check(b, err)
	pushedTo(b, h, "alice/app", "1.0", "1.1", "latest")
	pushedTo(b, h, "alice/tools", "1.0", "2.0", "latest")
	s := serve(b, h)
	tasks := []struct {
		name  string
		calls []call
	}{
		{"ci-failure", []call{{"run_explain", nil}}},
		{"open-issues", []call{{"issues_list", map[string]any{"bodies": true}}}},
		{"pr-diff", []call{{"prs_list", nil}, {"pr_diff", map[string]any{"number": pr.Number}}}},
		{"find-definition", []call{{"code_search", map[string]any{"query": "func ParseConfig(", "glob": "*.go"}}}},
		{"my-images", []call{{"registry_repositories", nil}, {"image_tags", map[string]any{"repository": "alice/app"}}, {"image_tags", map[string]any{"repository": "alice/tools"}}}},
	}
	for _, task := range tasks {
		b.Run(task.name, func(b *testing.B) {
			for b.Loop() {
				s.Wire.Reset()
				read := 0
				for _, c := range task.calls {
					read += len(s.Call(c.tool, c.args, nil))
				}
				b.ReportMetric(float64(len(task.calls)), "calls")
				b.ReportMetric(float64(read), "result-bytes")
				b.ReportMetric(float64(len(s.Wire.String())), "wire-bytes")
			}
		})
	}
}

type call struct {
	tool string
	args map[string]any
}

func check(b *testing.B, err error) {
	b.Helper()
	if err != nil {
		b.Fatal(err)
	}
}
