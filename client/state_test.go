package client

import (
	"testing"
	"time"
)

// One state vocabulary for every interface: a cancelled run is ⊘, not a
// failure's ✗, though Failed counts it.
func TestState(t *testing.T) {
	for _, c := range []struct {
		status, conclusion string
		mark, word         string
		tone               Tone
	}{
		{"completed", "success", "✓", "success", Good},
		{"completed", "failure", "✗", "failure", Bad},
		{"completed", "timed_out", "✗", "timed_out", Bad},
		{"completed", "action_required", "✗", "action_required", Bad},
		{"completed", "cancelled", "⊘", "cancelled", Muted},
		{"completed", "skipped", "-", "skipped", Muted},
		{"completed", "neutral", "-", "neutral", Muted},
		{"completed", "", "?", "completed", Muted},
		{"failure", "", "✗", "failure", Bad}, // a result left in status
		{"in_progress", "", "*", "in_progress", Pending},
		{"queued", "", "•", "queued", Pending},
		{"", "", "•", "unknown", Pending},
	} {
		got := State(c.status, c.conclusion)
		if got != (RunState{c.mark, c.word, c.tone}) {
			t.Errorf("State(%q, %q) = %+v", c.status, c.conclusion, got)
		}
	}
	if !Failed("cancelled") || Broke("cancelled") || !Broke("failure") || Broke("success") {
		t.Error("cancelled: Failed, not Broke")
	}
}

func TestElapsed(t *testing.T) {
	at := func(h int) Time { return Time{Time: time.Date(2026, 11, 1, h, 0, 0, 0, time.UTC)} }
	now := at(9).Time
	for _, c := range []struct {
		run  WorkflowRun
		want string
	}{
		{WorkflowRun{Status: "completed", Conclusion: "cancelled", CreatedAt: at(1), RunStartedAt: at(2), UpdatedAt: at(5)}, "3h0m0s"},
		{WorkflowRun{Status: "completed", Conclusion: "success", CreatedAt: at(1), UpdatedAt: at(5)}, "4h0m0s"},
		{WorkflowRun{Status: "in_progress", CreatedAt: at(1), RunStartedAt: at(7), UpdatedAt: at(8)}, "2h0m0s"},
		{WorkflowRun{Status: "queued", CreatedAt: at(1), UpdatedAt: at(1)}, ""},
		{WorkflowRun{Status: "completed", Conclusion: "success", RunStartedAt: at(5), UpdatedAt: at(4)}, ""}, // out of order
	} {
		d, ok := c.run.Elapsed(now)
		got := ""
		if ok {
			got = d.String()
		}
		if got != c.want {
			t.Errorf("%+v: %q, want %q", c.run, got, c.want)
		}
	}
	j := Job{Status: "completed", Conclusion: "success", StartedAt: at(2)}
	if _, ok := j.Elapsed(now); ok {
		t.Error("a finished job without completed_at has no elapsed time")
	}
}
