package client

import (
	"context"
	"io"
	"iter"
	"net/http"
	"net/url"
	"strconv"
)

// WorkflowRun is a CI run. The spec does not show its fields; these are
// GitHub's names, and RawJSON holds whatever the server sent.
type WorkflowRun struct {
	Raw
	ID           int64  `json:"id"`
	Name         string `json:"name"`
	DisplayTitle string `json:"display_title"`
	RunNumber    int64  `json:"run_number"`
	Event        string `json:"event"`
	Status       string `json:"status"`     // queued, in_progress, completed, ...
	Conclusion   string `json:"conclusion"` // success, failure, cancelled, ... once completed
	HeadBranch   string `json:"head_branch"`
	HeadSHA      string `json:"head_sha"`
	HTMLURL      string `json:"html_url"`
	Actor        User   `json:"actor"`
	CreatedAt    Time   `json:"created_at"`
	UpdatedAt    Time   `json:"updated_at"`
	RunStartedAt Time   `json:"run_started_at"`
}

// Job is one job of a run.
type Job struct {
	Raw
	ID          int64     `json:"id"`
	RunID       int64     `json:"run_id"`
	Name        string    `json:"name"`
	Status      string    `json:"status"`
	Conclusion  string    `json:"conclusion"`
	HTMLURL     string    `json:"html_url"`
	StartedAt   Time      `json:"started_at"`
	CompletedAt Time      `json:"completed_at"`
	Steps       []JobStep `json:"steps"`
}

// JobStep is a step of a job.
type JobStep struct {
	Name        string `json:"name"`
	Number      int64  `json:"number"`
	Status      string `json:"status"`
	Conclusion  string `json:"conclusion"`
	StartedAt   Time   `json:"started_at"`
	CompletedAt Time   `json:"completed_at"`
}

// RunListOptions filter a run list. The spec shows no filters; Branch,
// Status (a status or a conclusion) and Event are GitHub's parameters,
// sent only when set, and applied to the records too.
type RunListOptions struct {
	ListOptions
	Branch string
	Status string
	Event  string
}

// ActionsService covers CI: workflow runs, their jobs and the jobs' logs.
type ActionsService struct{ c *Client }

// ListRuns iterates over a repository's workflow runs, newest first as the
// server orders them.
func (s *ActionsService) ListRuns(ctx context.Context, repo RepoName, opts RunListOptions) iter.Seq2[*WorkflowRun, error] {
	q := url.Values{}
	for k, v := range map[string]string{"branch": opts.Branch, "status": opts.Status, "event": opts.Event} {
		if v != "" {
			q.Set(k, v)
		}
	}
	seq := list[WorkflowRun](s.c, ctx, repo.path("actions", "runs"), opts.values(q), opts.Pages)
	if len(q) == 0 {
		return seq
	}
	return keep(seq, opts.Pages, func(r *WorkflowRun) bool {
		return (opts.Branch == "" || r.HeadBranch == opts.Branch) &&
			(opts.Event == "" || r.Event == opts.Event) &&
			(opts.Status == "" || r.Status == opts.Status || r.Conclusion == opts.Status)
	})
}

// GetRun reads one run.
func (s *ActionsService) GetRun(ctx context.Context, repo RepoName, id int64) (*WorkflowRun, error) {
	return getOne[WorkflowRun](s.c, ctx, repo.path("actions", "runs", strconv.FormatInt(id, 10)))
}

// ListJobs iterates over the jobs of a run.
func (s *ActionsService) ListJobs(ctx context.Context, repo RepoName, runID int64, opts ListOptions) iter.Seq2[*Job, error] {
	return list[Job](s.c, ctx, repo.path("actions", "runs", strconv.FormatInt(runID, 10), "jobs"), opts.values(nil), opts.Pages)
}

// JobLogs opens a job's plain-text log; the caller reads and closes it.
// The log is streamed, never held in memory whole.
func (s *ActionsService) JobLogs(ctx context.Context, repo RepoName, jobID int64) (io.ReadCloser, error) {
	resp, err := s.c.Stream(ctx, repo.path("actions", "jobs", strconv.FormatInt(jobID, 10), "logs"))
	if err != nil {
		return nil, err
	}
	return resp.Body, nil
}

// CancelRun asks the service to stop a run that has not completed, and
// returns the run as it answered (zero when it sent no body). The spec
// shows no such endpoint: the path is GitHub's, which the reference server
// implements; a service without it answers 404 or 405 (see
// NotOffered).
func (s *ActionsService) CancelRun(ctx context.Context, repo RepoName, id int64) (*WorkflowRun, error) {
	return sendOne[WorkflowRun](s.c, ctx, http.MethodPost, repo.path("actions", "runs", strconv.FormatInt(id, 10), "cancel"), nil)
}

// RerunRun asks the service to run a run's workflow again at the same
// commit, and returns the new run (zero when the service sent no body,
// as GitHub does). Beyond the spec, like CancelRun.
func (s *ActionsService) RerunRun(ctx context.Context, repo RepoName, id int64) (*WorkflowRun, error) {
	return sendOne[WorkflowRun](s.c, ctx, http.MethodPost, repo.path("actions", "runs", strconv.FormatInt(id, 10), "rerun"), nil)
}

// NotOffered reports whether err says the service has no such endpoint
// (404 or 405): for the actions beyond the spec, a service that does not
// offer them.
func NotOffered(err error) bool {
	return HasStatus(err, http.StatusNotFound) || HasStatus(err, http.StatusMethodNotAllowed)
}
