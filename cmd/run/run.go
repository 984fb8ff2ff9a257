// Package run implements `forge run`: a repository's CI workflow runs —
// listing them, viewing one with its jobs, watching one until it
// completes, and printing its jobs' logs.
package run

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
	"github.com/spf13/cobra"
)

// NewCmd returns `forge run` and its subcommands.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdcore.Group(&cobra.Command{
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

// runTitle names a run for messages: its workflow and number, e.g.
// "CI (12)", the service's name made safe for a terminal.
func runTitle(r *client.WorkflowRun) string {
	name := r.Name
	if name == "" {
		name = "run"
	}
	return fmt.Sprintf("%s (%d)", text.OneLine(name), r.ID)
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
	// The two reads race the run: one that ended between them shows jobs
	// still going. Read them again, so what forge says last is the end.
	if client.Done(run.Status, run.Conclusion) && !allDone(jobs) {
		jobs, err = client.Collect(c.Actions.ListJobs(ctx, repo, id, client.ListOptions{PerPage: 100}), 0)
		if err != nil {
			return nil, nil, err
		}
	}
	return run, jobs, nil
}

func allDone(jobs []*client.Job) bool {
	for _, j := range jobs {
		if !client.Done(j.Status, j.Conclusion) {
			return false
		}
	}
	return true
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
