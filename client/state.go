package client

import "time"

// RunState is how forge shows the state of a run, a job, a step or a pull
// request's check, the same in `forge run`, `forge pr checks` and the TUI:
// a mark, a word and a tone each interface colours its own way.
type RunState struct {
	// Mark: ✓ success, ✗ failed, ⊘ cancelled (stopped, nothing broke, yet
	// Failed: it did not do its work), - skipped or neutral, ? finished
	// with no conclusion, * running, • waiting (queued, pending, ...).
	Mark string
	// Word is the conclusion once finished, else the status, as the
	// service names them (unsanitized: the caller makes it safe).
	Word string
	Tone Tone
}

// Tone is a state's colour in words: green, red, gray or yellow.
type Tone int

const (
	Pending Tone = iota // not finished: yellow
	Good                // success: green
	Bad                 // failed: red
	Muted               // cancelled, skipped, unknown: gray
)

// State is the RunState of a status and conclusion, read as Done and
// Failed read them.
func State(status, conclusion string) RunState {
	if conclusion == "" && status != "completed" && Done(status, "") {
		conclusion = status // a result left in status
	}
	word := conclusion
	if word == "" {
		word = status
	}
	if word == "" {
		word = "unknown"
	}
	switch {
	case !Done(status, conclusion):
		if status == "in_progress" {
			return RunState{"*", word, Pending}
		}
		return RunState{"•", word, Pending}
	case conclusion == "success":
		return RunState{"✓", word, Good}
	case Broke(conclusion):
		return RunState{"✗", word, Bad}
	case conclusion == "cancelled":
		return RunState{"⊘", word, Muted}
	case conclusion == "":
		return RunState{"?", word, Muted}
	}
	return RunState{"-", word, Muted}
}

// Broke reports whether a run or job failed by itself: Failed, and not
// because someone cancelled it. It is drawn ✗, and is what "why did it
// fail?" asks about.
func Broke(conclusion string) bool {
	return Failed(conclusion) && conclusion != "cancelled"
}

// Done reports whether a run or job with this status and conclusion has
// finished. Records are read with results in status moved to the
// conclusion; a status that is itself a result still counts as finished.
func Done(status, conclusion string) bool {
	if conclusion != "" {
		return true
	}
	switch status {
	case "completed", "success", "failure", "cancelled", "skipped", "timed_out", "neutral", "stale", "action_required", "startup_failure":
		return true
	}
	return false
}

// Elapsed is how long the run has run: from run_started_at (else
// created_at) to updated_at once done, to now while it runs. ok is false
// while it waits to start, and when a finished run's times are missing
// or out of order.
func (r *WorkflowRun) Elapsed(now time.Time) (d time.Duration, ok bool) {
	start := r.RunStartedAt.Time
	if start.IsZero() {
		switch r.Status {
		case "queued", "waiting", "pending", "requested":
			return 0, false
		}
		start = r.CreatedAt.Time
	}
	return span(start, r.UpdatedAt.Time, Done(r.Status, r.Conclusion), now)
}

// Elapsed is how long the job has run: started_at to completed_at, or to
// now while it runs; ok is false before it starts.
func (j *Job) Elapsed(now time.Time) (d time.Duration, ok bool) {
	return span(j.StartedAt.Time, j.CompletedAt.Time, Done(j.Status, j.Conclusion), now)
}

// span is start to end (to now when not finished), in whole seconds.
func span(start, end time.Time, finished bool, now time.Time) (time.Duration, bool) {
	if !finished {
		end = now
	}
	if start.IsZero() || end.IsZero() || end.Before(start) {
		return 0, false
	}
	return end.Sub(start).Round(time.Second), true
}

// State is the run's RunState.
func (r *WorkflowRun) State() RunState { return State(r.Status, r.Conclusion) }

// State is the job's RunState.
func (j *Job) State() RunState { return State(j.Status, j.Conclusion) }

// State is the step's RunState.
func (s *JobStep) State() RunState { return State(s.Status, s.Conclusion) }
