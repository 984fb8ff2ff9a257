// Package ci holds the TUI's CI views: a repository's workflow runs with
// live status (refreshed in the background while any is unfinished), a
// run's jobs, and a job's log in a pager that follows new lines.
package ci

import (
	"fmt"
	"time"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
)

// pollEvery is how often unfinished runs and jobs are asked about; logs
// of running jobs are asked for every logEvery.
const (
	pollEvery = 2 * time.Second
	logEvery  = time.Second
)

type pollMsg struct{ owner, gen int }

// finished reports whether a run or job is over.
func finished(status, conclusion string) bool {
	return status == "completed" || (status == "" && conclusion != "")
}

// icon draws a status: the spinner while running.
func icon(ctx *common.Context, status, conclusion string) string {
	st := ctx.Styles
	if !finished(status, conclusion) {
		if status == "in_progress" {
			return st.Accent.Render(ctx.Spinner)
		}
		return st.Warning.Render("•")
	}
	switch conclusion {
	case "success":
		return st.Success.Render("✓")
	case "failure", "timed_out", "startup_failure":
		return st.Failure.Render("✗")
	case "cancelled":
		return st.Dim.Render("⊘")
	case "skipped", "neutral":
		return st.Dim.Render("-")
	}
	return st.Dim.Render("?")
}

// describe says a status in words: "in progress", "success", "queued".
func describe(status, conclusion string) string {
	if finished(status, conclusion) {
		if conclusion == "" {
			return "completed"
		}
		return conclusion
	}
	switch status {
	case "in_progress":
		return "in progress"
	case "":
		return "unknown"
	}
	return status
}

// duration says how long something ran: "42s", "3m 05s"; while it runs,
// up to now.
func duration(start, end client.Time, now time.Time) string {
	if start.IsZero() {
		return ""
	}
	stop := now
	if !end.IsZero() {
		stop = end.Time
	}
	d := stop.Sub(start.Time).Round(time.Second)
	if d < 0 {
		d = 0
	}
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm %02ds", int(d/time.Minute), int(d/time.Second)%60)
	}
	return fmt.Sprintf("%dh %02dm", int(d/time.Hour), int(d/time.Minute)%60)
}

// runTitle is what a run is called: its display title, else its name.
func runTitle(r *client.WorkflowRun) string {
	if r.DisplayTitle != "" {
		return text.OneLine(r.DisplayTitle)
	}
	return text.OneLine(r.Name)
}
