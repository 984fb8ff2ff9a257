package ci

import (
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func plan() Plan {
	return Plan{Jobs: []JobPlan{
		{ID: 1, Name: "build", Steps: []StepPlan{{Name: "a", Lines: []string{"a1", "a2"}}, {Name: "b", Lines: []string{"b1"}}}},
		{ID: 2, Name: "test", Steps: []StepPlan{{Name: "c", Lines: []string{"c1", "c2"}}}},
	}}
}

func at(tick int64) time.Time { return t0.Add(time.Duration(tick) * time.Second) }

func TestProgress(t *testing.T) {
	p := plan()
	c := Clock{Origin: t0, Tick: time.Second}
	if n := p.Length(); n != 6 {
		t.Fatalf("Length %d, want 6 (1 queued + 3 + 2)", n)
	}
	tests := []struct {
		tick             int64
		run, concl       string
		build, test      string
		buildLog, noLine string
	}{
		{0, Queued, "", Queued, Queued, "", "==>"},
		{1, InProgress, "", InProgress, Queued, "==> a", "a1"},
		{2, InProgress, "", InProgress, Queued, "a1", "a2"},
		{3, InProgress, "", InProgress, Queued, "a2", "b1"},
		{4, InProgress, "", Completed, InProgress, "b1", ""},
		{6, Completed, Success, Completed, Completed, "b1", ""},
		{100, Completed, Success, Completed, Completed, "b1", ""},
	}
	for _, tt := range tests {
		st := Evaluate(p, c, at(tt.tick))
		if st.Status != tt.run || st.Conclusion != tt.concl || st.Jobs[0].Status != tt.build || st.Jobs[1].Status != tt.test {
			t.Errorf("tick %d: run %s/%s jobs %s, %s; want %s/%s %s, %s", tt.tick, st.Status, st.Conclusion,
				st.Jobs[0].Status, st.Jobs[1].Status, tt.run, tt.concl, tt.build, tt.test)
		}
		if tt.buildLog != "" && !strings.Contains(st.Jobs[0].Log, tt.buildLog) {
			t.Errorf("tick %d: build log %q lacks %q", tt.tick, st.Jobs[0].Log, tt.buildLog)
		}
		if tt.noLine != "" && strings.Contains(st.Jobs[0].Log, tt.noLine) {
			t.Errorf("tick %d: build log %q already has %q", tt.tick, st.Jobs[0].Log, tt.noLine)
		}
	}
	// A log only grows.
	prev := ""
	for tick := int64(0); tick < 8; tick++ {
		st := Evaluate(p, c, at(tick))
		log := st.Jobs[0].Log + st.Jobs[1].Log
		if !strings.HasPrefix(log, prev) && prev != "" {
			t.Fatalf("tick %d: log %q does not extend %q", tick, log, prev)
		}
		prev = st.Jobs[0].Log
	}
	done := Evaluate(p, c, at(6))
	if done.CompletedAt == nil || !done.CompletedAt.Equal(at(6)) || done.StartedAt == nil || !done.StartedAt.Equal(at(1)) {
		t.Errorf("times: started %v completed %v", done.StartedAt, done.CompletedAt)
	}
	if s := done.Jobs[1].Steps[0]; s.Conclusion != Success || !s.StartedAt.Equal(at(4)) || !s.CompletedAt.Equal(at(6)) {
		t.Errorf("step c: %+v", s)
	}
}

func TestFailure(t *testing.T) {
	p := plan()
	p.FailJob, p.FailStep = 1, 1
	c := Clock{Origin: t0, Tick: time.Second}
	if n := p.Length(); n != 3 {
		t.Fatalf("Length %d, want 3", n)
	}
	st := Evaluate(p, c, at(10))
	if st.Status != Completed || st.Conclusion != Failure {
		t.Fatalf("run %s/%s", st.Status, st.Conclusion)
	}
	b, tj := st.Jobs[0], st.Jobs[1]
	if b.Conclusion != Failure || b.Steps[0].Conclusion != Failure || b.Steps[1].Conclusion != Skipped {
		t.Errorf("build %+v", b)
	}
	if tj.Status != Completed || tj.Conclusion != Skipped || tj.Log != "" {
		t.Errorf("test %+v", tj)
	}
	if !strings.Contains(b.Log, "##[error]") {
		t.Errorf("failure not logged: %q", b.Log)
	}
	if !st.CompletedAt.Equal(at(3)) {
		t.Errorf("completed at %v, want %v", st.CompletedAt, at(3))
	}
}

func TestCancelAndHold(t *testing.T) {
	p := plan()
	cancel := int64(2)
	c := Clock{Origin: t0, Tick: time.Second, CancelAt: &cancel}
	st := Evaluate(p, c, at(50))
	if st.Status != Completed || st.Conclusion != Cancelled {
		t.Fatalf("run %s/%s", st.Status, st.Conclusion)
	}
	if st.Jobs[0].Conclusion != Cancelled || st.Jobs[1].Conclusion != Cancelled {
		t.Errorf("jobs %s %s", st.Jobs[0].Conclusion, st.Jobs[1].Conclusion)
	}
	if strings.Contains(st.Jobs[0].Log, "a2") || !strings.Contains(st.Jobs[0].Log, "a1") {
		t.Errorf("cancelled log %q", st.Jobs[0].Log)
	}
	// Before the cancellation tick it runs as usual.
	if st := Evaluate(p, c, at(1)); st.Status != InProgress {
		t.Errorf("before cancel: %s", st.Status)
	}
	// Cancelled while queued.
	zero := int64(0)
	st = Evaluate(p, Clock{Origin: t0, Tick: time.Second, CancelAt: &zero}, at(5))
	if st.Status != Completed || st.Conclusion != Cancelled || st.StartedAt != nil {
		t.Errorf("cancelled while queued: %+v", st)
	}
	// A held run stays where it is.
	hold := int64(2)
	c = Clock{Origin: t0, Tick: time.Second, Hold: &hold}
	if a, b := Evaluate(p, c, at(2)), Evaluate(p, c, at(1000)); a.Status != InProgress || a.Jobs[0].Log != b.Jobs[0].Log || b.Status != InProgress {
		t.Errorf("hold: %s %q / %s %q", a.Status, a.Jobs[0].Log, b.Status, b.Jobs[0].Log)
	}
}

// TestStepMovesASteppedRunOnePerRead: a Stepped run moves one tick per
// Step, up to its length, and a run that is not Stepped does not move.
func TestStepMovesASteppedRunOnePerRead(t *testing.T) {
	zero := int64(0)
	c := Clock{Origin: t0, Tick: time.Second, Hold: &zero, Stepped: true}
	for want := int64(1); want <= 3; want++ {
		c.Step(2)
		if got := *c.Hold; got != min(want, 2) {
			t.Fatalf("after %d steps the hold is %d, want %d", want, got, min(want, 2))
		}
	}
	h := int64(0)
	still := Clock{Origin: t0, Tick: time.Second, Hold: &h}
	still.Step(5)
	if *still.Hold != 0 {
		t.Fatalf("a run that is not stepped moved to %d", *still.Hold)
	}
}
