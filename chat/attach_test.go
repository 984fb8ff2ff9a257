package chat_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/forgehq/forge/chat"
	"github.com/forgehq/forge/refserver/agent"
)

func TestAttachmentBlock(t *testing.T) {
	a := &chat.Attachment{Ref: "file:README.md", Title: "File README.md", Sections: []*chat.Section{
		{Lines: []string{"```sh", "make", "```", "four ```` inside"}},
		{Title: "more", Lines: []string{"last"}},
	}}
	want := "`````forge-context file:README.md\nFile README.md\n```sh\nmake\n```\nfour ```` inside\n@@ more @@\nlast\n`````"
	if got := a.Block(); got != want {
		t.Errorf("Block:\n%s\nwant:\n%s", got, want)
	}
	if got := chat.WithContext([]*chat.Attachment{a}, "Why?"); got != want+"\n\nWhy?" {
		t.Errorf("WithContext: %q", got)
	}
}

func numbered(prefix string, n int) []string {
	var l []string
	for i := 1; i <= n; i++ {
		l = append(l, fmt.Sprintf("%s line %d", prefix, i))
	}
	return l
}

func TestFitCutsLogsFromTheTopAndTheRestFromTheEnd(t *testing.T) {
	logSec := &chat.Section{Title: "job test (failure): log", Lines: append(numbered("log", 300), "##[error]exit 1"), KeepTail: true}
	run := &chat.Attachment{Ref: "run:7", Title: "CI run 7", Sections: []*chat.Section{{Lines: []string{"state: completed, failure"}}, logSec}}
	issueSec := &chat.Section{Lines: numbered("body", 300)}
	issue := &chat.Attachment{Ref: "issue:1", Title: "Issue #1", Sections: []*chat.Section{issueSec}}
	atts := []*chat.Attachment{run, issue}
	const budget = 1000
	if !chat.Fit(atts, budget) {
		t.Fatal("Fit: no room")
	}
	total := run.Tokens() + issue.Tokens()
	if total > budget || total < budget*8/10 {
		t.Errorf("after Fit the attachments take %d tokens; want at most %d and not much less", total, budget)
	}
	rb, ib := run.Block(), issue.Block()
	if !strings.Contains(rb, "state: completed, failure\n") || !strings.HasSuffix(rb, "##[error]exit 1\n```") || strings.Contains(rb, "log line 1\n") {
		t.Errorf("the run kept the wrong end:\n%s", rb)
	}
	if !strings.Contains(rb, "[forge: cut ") || !strings.Contains(rb, "lines from the top to fit the token budget]") {
		t.Errorf("the run does not say what was cut:\n%s", rb)
	}
	if !strings.Contains(ib, "body line 1\n") || strings.Contains(ib, "body line 300") || !strings.Contains(ib, "lines from the end to fit the token budget]") {
		t.Errorf("the issue kept the wrong end:\n%s", ib)
	}
	cuts := append(run.Cuts(), issue.Cuts()...)
	if len(cuts) != 2 || !strings.HasPrefix(cuts[0], "run:7: cut ") || !strings.Contains(cuts[0], "of 301 lines from the top of job test (failure): log") ||
		!strings.Contains(cuts[1], "of 300 lines from the end of Issue #1") {
		t.Errorf("Cuts: %q", cuts)
	}
	// A later Fit with room for everything shows everything again.
	if !chat.Fit(atts, 1_000_000) || len(run.Cuts())+len(issue.Cuts()) != 0 || !strings.Contains(run.Block(), "log line 1\n") {
		t.Error("a second Fit with a large budget did not restore the lines")
	}
	if chat.Fit(atts, 10) {
		t.Error("Fit reported room for the titles in 10 tokens")
	}
}

func TestEstimateTokens(t *testing.T) {
	for text, want := range map[string]int{"": 0, "hello world": 2, "a, b.\n\nc": 6, "héllo  wörld!": 3} {
		if got := chat.EstimateTokens(text); got != want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", text, got, want)
		}
		// The budget is exact against the reference service.
		if got, ref := chat.EstimateTokens(text), agent.CountTokens(text); got != ref {
			t.Errorf("EstimateTokens(%q) = %d; the reference agent counts %d", text, got, ref)
		}
	}
}

// BenchmarkFitRunLogs: cutting three failed jobs' 500-line log tails to a
// 4,000-token budget, as a message with run:ID attached does.
func BenchmarkFitRunLogs(b *testing.B) {
	a := &chat.Attachment{Ref: "run:1", Title: "CI run 1", Sections: []*chat.Section{{Lines: []string{"state: completed, failure"}}}}
	for j := 0; j < 3; j++ {
		lines := make([]string, 500)
		for i := range lines {
			lines[i] = fmt.Sprintf("2026-01-02T03:04:05.000Z step %d of job %d: compiling example.com/app/pkg%d", i, j, i)
		}
		a.Sections = append(a.Sections, &chat.Section{Title: fmt.Sprintf("job j%d (failure): log", j), Lines: lines, KeepTail: true})
	}
	atts := []*chat.Attachment{a}
	b.ReportAllocs()
	for b.Loop() {
		if !chat.Fit(atts, 4000) {
			b.Fatal("no room")
		}
	}
}
