// Package ci models the reference server's workflow runs. A run is a plan
// (jobs, their steps, each step's log lines, and how it ends) plus the
// moment it was queued and the length of a tick; its state at any time is
// computed from those, so runs progress with no goroutine, survive
// restarts unchanged, and tests control their pace with the tick length.
//
// Timeline: a run is queued for one tick, then its jobs run one after the
// other; a step takes one tick per log line (at least one) and appends
// one line per tick. A failing step fails its job, skips the job's later
// steps and the later jobs, and fails the run. A cancellation at tick N
// cancels whatever had not completed by then.
package ci

import (
	"fmt"
	"strings"
	"time"
)

// Statuses and conclusions, as GitHub names them.
const (
	Queued     = "queued"
	InProgress = "in_progress"
	Completed  = "completed"

	Success   = "success"
	Failure   = "failure"
	Cancelled = "cancelled"
	Skipped   = "skipped"
)

// Plan is how a run will go.
type Plan struct {
	Jobs []JobPlan `json:"jobs"`
	// FailJob and FailStep (1-based, 0 = none) name the step that fails.
	FailJob  int `json:"fail_job,omitempty"`
	FailStep int `json:"fail_step,omitempty"`
}

// JobPlan is one job: its ID (assigned by the store) and steps.
type JobPlan struct {
	ID    int64      `json:"id"`
	Name  string     `json:"name"`
	Steps []StepPlan `json:"steps"`
}

// StepPlan is one step and the lines it logs.
type StepPlan struct {
	Name  string   `json:"name"`
	Lines []string `json:"lines"`
}

func (s StepPlan) ticks() int64 { return int64(max(1, len(s.Lines))) }

// Clock places a run in time: tick 0 is Origin; Hold, when set, stops the
// run at that tick; CancelAt, when set, cancels it at that tick. A Stepped
// run moves on when it is read, not with time: each read of the run (alone
// or in a list) raises
// its Hold by one tick (Step), so a test watching it sees every state
// however slow the machine is.
type Clock struct {
	Origin   time.Time     `json:"origin"`
	Tick     time.Duration `json:"tick"`
	Hold     *int64        `json:"hold,omitempty"`
	CancelAt *int64        `json:"cancel_at,omitempty"`
	Stepped  bool          `json:"stepped,omitempty"`
}

// Step moves a Stepped run one tick on, up to length (the plan's Length).
func (c *Clock) Step(length int64) {
	if !c.Stepped || c.Hold == nil || *c.Hold >= length {
		return
	}
	h := *c.Hold + 1
	c.Hold = &h
}

// TickAt is the number of whole ticks elapsed at now.
func (c Clock) TickAt(now time.Time) int64 {
	if c.Tick <= 0 {
		c.Tick = time.Second
	}
	n := int64(now.Sub(c.Origin) / c.Tick)
	if n < 0 {
		n = 0
	}
	if c.Hold != nil && n > *c.Hold {
		n = *c.Hold
	}
	return n
}

func (c Clock) at(tick int64) time.Time {
	if c.Tick <= 0 {
		c.Tick = time.Second
	}
	return c.Origin.Add(time.Duration(tick) * c.Tick).UTC().Truncate(time.Second)
}

// Length is the number of ticks a plan takes from queueing to completion
// when nothing cancels it.
func (p Plan) Length() int64 {
	n := int64(1)
	for ji, j := range p.Jobs {
		for si, s := range j.Steps {
			n += s.ticks()
			if p.FailJob == ji+1 && p.FailStep == si+1 {
				return n
			}
		}
	}
	return n
}

// State is a run's state at one moment.
type State struct {
	Status      string
	Conclusion  string // "" until completed
	StartedAt   *time.Time
	UpdatedAt   time.Time
	CompletedAt *time.Time
	Jobs        []JobState
}

// JobState is a job's state at one moment.
type JobState struct {
	ID          int64
	Name        string
	Status      string
	Conclusion  string
	StartedAt   *time.Time
	CompletedAt *time.Time
	Steps       []StepState
	Log         string
}

// StepState is a step's state at one moment.
type StepState struct {
	Number      int
	Name        string
	Status      string
	Conclusion  string
	StartedAt   *time.Time
	CompletedAt *time.Time
}

// Evaluate computes the run's state at now.
func Evaluate(p Plan, c Clock, now time.Time) State {
	tick := c.TickAt(now)
	cancel := int64(-1)
	if c.CancelAt != nil {
		cancel = *c.CancelAt
	}
	cancelled := cancel >= 0 && tick >= cancel
	st := State{Status: Queued, UpdatedAt: c.at(0)}
	// pos is the tick at which the next step would start.
	pos := int64(1)
	failed := false
	for ji, jp := range p.Jobs {
		js := JobState{ID: jp.ID, Name: jp.Name, Status: Queued}
		var log strings.Builder
		for si, sp := range jp.Steps {
			ss := StepState{Number: si + 1, Name: sp.Name, Status: Queued}
			start, end := pos, pos+sp.ticks()
			switch {
			case failed:
				ss.Status, ss.Conclusion = Completed, Skipped
			case cancelled && cancel <= start:
				ss.Status, ss.Conclusion = Completed, Cancelled
				if js.Status == InProgress {
					ss.CompletedAt = ptr(c.at(cancel))
				}
			case tick < start:
			default:
				ss.Status, ss.StartedAt = InProgress, ptr(c.at(start))
				js.Status = InProgress
				if js.StartedAt == nil {
					js.StartedAt = ss.StartedAt
				}
				fmt.Fprintf(&log, "%s ==> %s\n", stamp(c.at(start)), sp.Name)
				upto := min(tick, end)
				if cancelled {
					upto = min(upto, cancel)
				}
				for i := int64(0); i < upto-start && int(i) < len(sp.Lines); i++ {
					fmt.Fprintf(&log, "%s %s\n", stamp(c.at(start+i+1)), sp.Lines[i])
				}
				st.UpdatedAt = c.at(upto)
				fails := p.FailJob == ji+1 && p.FailStep == si+1
				switch {
				case tick >= end && !(cancelled && cancel < end):
					ss.Status, ss.CompletedAt = Completed, ptr(c.at(end))
					ss.Conclusion = Success
					if fails {
						ss.Conclusion = Failure
						failed = true
						fmt.Fprintf(&log, "%s ##[error]Process completed with exit code 1.\n", stamp(c.at(end)))
					}
				case cancelled:
					ss.Status, ss.Conclusion, ss.CompletedAt = Completed, Cancelled, ptr(c.at(cancel))
					fmt.Fprintf(&log, "%s ##[error]The operation was canceled.\n", stamp(c.at(cancel)))
				}
			}
			pos = end
			js.Steps = append(js.Steps, ss)
		}
		js.Log = log.String()
		js.Status, js.Conclusion, js.CompletedAt = jobOutcome(js)
		if js.CompletedAt != nil && js.StartedAt == nil && js.Conclusion != Skipped {
			js.StartedAt = js.CompletedAt
		}
		st.Jobs = append(st.Jobs, js)
		if failed {
			// Later jobs are skipped; their steps already were above.
			continue
		}
	}
	st.Status, st.Conclusion = runOutcome(st.Jobs, tick, cancelled)
	for _, j := range st.Jobs {
		if j.StartedAt != nil && (st.StartedAt == nil || j.StartedAt.Before(*st.StartedAt)) {
			st.StartedAt = j.StartedAt
		}
		if j.CompletedAt != nil && j.CompletedAt.After(st.UpdatedAt) {
			st.UpdatedAt = *j.CompletedAt
		}
	}
	if cancelled && st.StartedAt == nil {
		st.UpdatedAt = c.at(cancel)
	}
	if st.Status == Completed {
		st.CompletedAt = ptr(st.UpdatedAt)
	}
	return st
}

// jobOutcome derives a job's status from its steps.
func jobOutcome(j JobState) (status, conclusion string, completed *time.Time) {
	if len(j.Steps) == 0 {
		return j.Status, j.Conclusion, nil
	}
	conclusion = Success
	for _, s := range j.Steps {
		if s.Status != Completed {
			return j.Status, "", nil
		}
		if s.CompletedAt != nil {
			completed = s.CompletedAt
		}
		switch s.Conclusion {
		case Failure:
			conclusion = Failure
		case Cancelled:
			if conclusion != Failure {
				conclusion = Cancelled
			}
		}
	}
	if allSkipped(j.Steps) {
		conclusion = Skipped
	}
	return Completed, conclusion, completed
}

func allSkipped(steps []StepState) bool {
	for _, s := range steps {
		if s.Conclusion != Skipped {
			return false
		}
	}
	return true
}

func runOutcome(jobs []JobState, tick int64, cancelled bool) (status, conclusion string) {
	if len(jobs) == 0 {
		if cancelled {
			return Completed, Cancelled
		}
		if tick >= 1 {
			return Completed, Success
		}
		return Queued, ""
	}
	started, conclusion := false, Success
	for _, j := range jobs {
		if j.Status != Queued {
			started = true
		}
		if j.Status != Completed {
			if started || tick >= 1 {
				return InProgress, ""
			}
			return Queued, ""
		}
		switch j.Conclusion {
		case Failure:
			conclusion = Failure
		case Cancelled:
			if conclusion != Failure {
				conclusion = Cancelled
			}
		}
	}
	return Completed, conclusion
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

func ptr[T any](v T) *T { return &v }

// DefaultPlan is the workflow a push or a seeded run gets when it names
// no jobs: build and test, as a Go project's CI would log them.
func DefaultPlan() Plan {
	return Plan{Jobs: []JobPlan{
		{Name: "build", Steps: []StepPlan{
			{Name: "Set up job", Lines: []string{"Runner: forge-hosted (linux, x64)", "Preparing workflow directory"}},
			{Name: "Checkout", Lines: []string{"Fetching the repository", "Checked out HEAD"}},
			{Name: "Build", Lines: []string{"go build ./...", "ok"}},
		}},
		{Name: "test", Steps: []StepPlan{
			{Name: "Set up job", Lines: []string{"Runner: forge-hosted (linux, x64)"}},
			{Name: "Test", Lines: []string{"go test ./...", "ok  \texample.com/app\t0.012s", "ok  \texample.com/app/internal\t0.020s"}},
			{Name: "Complete job", Lines: []string{"Cleaning up orphan processes"}},
		}},
	}}
}
