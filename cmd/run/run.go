// Package run implements `forge run`: a repository's CI workflow runs —
// listing them, viewing one with its jobs, watching one until it
// completes, and printing its jobs' logs.
package run

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/output"
	"github.com/spf13/cobra"
)

// NewCmd returns `forge run` and its subcommands.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:   "run <command>",
		Short: "List, view, watch, cancel and re-run CI workflow runs, and ask the agent why one failed",
		Example: `  forge run list -R alice/demo
  forge run watch 12 --exit-status || forge run explain 12`,
		Long: `Work with a repository's CI workflow runs. The repository is -R OWNER/REPO,
else FORGE_REPO, else the git remote of the current directory that points at
the profile's host.`,
	})
	cmd.AddCommand(newListCmd(f, nil), newViewCmd(f, nil), newWatchCmd(f, nil), newLogsCmd(f, nil), newExplainCmd(f, nil),
		newCancelCmd(f, nil), newRerunCmd(f, nil))
	return cmd
}

// runFields are the fields forge knows of a run; --json passes through
// whatever else the service sends.
var runFields = []string{"id", "name", "display_title", "run_number", "event", "status", "conclusion",
	"head_branch", "head_sha", "html_url", "actor", "created_at", "updated_at", "run_started_at"}

// done reports whether a run or job with this status and conclusion has
// finished. GitHub puts a conclusion in status for some states; a tolerant
// reader treats those as completed with that conclusion.
func done(status, conclusion string) bool {
	if conclusion != "" {
		return true
	}
	switch status {
	case "completed", "success", "failure", "cancelled", "skipped", "timed_out", "neutral", "stale", "action_required", "startup_failure":
		return true
	}
	return false
}

// outcome is the word that describes a state: the conclusion once there is
// one, else the status.
func outcome(status, conclusion string) string {
	if conclusion != "" {
		return conclusion
	}
	if status == "" {
		return "unknown"
	}
	return status
}

// symbol is the one-character mark of a state, as gh draws it: ✓ success,
// X failure, - cancelled or skipped, * still going.
func symbol(cs *iostreams.ColorScheme, status, conclusion string) string {
	if !done(status, conclusion) {
		return cs.Yellow("*")
	}
	switch outcome(status, conclusion) {
	case "success":
		return cs.Green("✓")
	case "cancelled", "skipped", "neutral", "stale":
		return cs.Gray("-")
	}
	return cs.Red("X")
}

// tableColor is symbol's colour for a table cell.
func tableColor(status, conclusion string) output.Color {
	if !done(status, conclusion) {
		return output.Yellow
	}
	switch outcome(status, conclusion) {
	case "success":
		return output.Green
	case "cancelled", "skipped", "neutral", "stale":
		return output.Gray
	}
	return output.Red
}

// elapsed is how long something ran: from its start to its end, or to now
// while it runs; 0 when it has not started.
func elapsed(started, ended time.Time, finished bool, now time.Time) time.Duration {
	if started.IsZero() {
		return 0
	}
	end := now
	if finished {
		if ended.IsZero() {
			return 0
		}
		end = ended
	}
	if d := end.Sub(started); d > 0 {
		return d.Round(time.Second)
	}
	return 0
}

// runElapsed is a run's duration: run_started_at (or created_at) to
// updated_at once completed, to now while it runs, nothing while queued.
func runElapsed(r *client.WorkflowRun, now time.Time) string {
	start := r.RunStartedAt.Time
	if start.IsZero() {
		if r.Status == "queued" || r.Status == "waiting" || r.Status == "pending" || r.Status == "requested" {
			return ""
		}
		start = r.CreatedAt.Time
	}
	d := elapsed(start, r.UpdatedAt.Time, done(r.Status, r.Conclusion), now)
	if d == 0 && !done(r.Status, r.Conclusion) {
		return ""
	}
	return d.String()
}

// jobElapsed is a job's duration, "" before it starts.
func jobElapsed(j *client.Job, now time.Time) string {
	if j.StartedAt.IsZero() {
		return ""
	}
	return elapsed(j.StartedAt.Time, j.CompletedAt.Time, done(j.Status, j.Conclusion), now).String()
}

// runTitle names a run for messages: its workflow and number, e.g.
// "CI (12)".
func runTitle(r *client.WorkflowRun) string {
	name := r.Name
	if name == "" {
		name = "run"
	}
	return fmt.Sprintf("%s (%d)", name, r.ID)
}

// fetchRun reads a run and its jobs at the same time: two requests in
// parallel over the shared connection pool instead of one after the other.
func fetchRun(ctx context.Context, c *client.Client, repo client.RepoName, id int64) (*client.WorkflowRun, []*client.Job, error) {
	var (
		wg      sync.WaitGroup
		jobs    []*client.Job
		jobsErr error
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		jobs, jobsErr = client.Collect(c.Actions.ListJobs(ctx, repo, id, client.ListOptions{PerPage: 100}), 0)
	}()
	run, err := c.Actions.GetRun(ctx, repo, id)
	wg.Wait()
	if err != nil {
		return nil, nil, err
	}
	if jobsErr != nil {
		return nil, nil, jobsErr
	}
	return run, jobs, nil
}

// joinNonEmpty joins the non-empty parts with sep.
func joinNonEmpty(sep string, parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, sep)
}
