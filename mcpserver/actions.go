package mcpserver

import (
	"bufio"
	"context"
	"fmt"
	"strings"

	"github.com/forgehq/forge/app/agentctx"
	"github.com/forgehq/forge/chat"
	"github.com/forgehq/forge/client"
)

// Run is a CI run.
type Run struct {
	ID         int64  `json:"id"`
	Workflow   string `json:"workflow"`
	Title      string `json:"title,omitempty"`
	Number     int64  `json:"number"`
	Event      string `json:"event,omitempty"`
	Status     string `json:"status"`
	Conclusion string `json:"conclusion,omitempty"`
	Branch     string `json:"branch,omitempty"`
	Commit     string `json:"commit,omitempty"`
	Actor      string `json:"actor,omitempty"`
	CreatedAt  string `json:"created_at,omitempty"`
	URL        string `json:"url,omitempty"`
	Jobs       []Job  `json:"jobs,omitempty"`
	Note       string `json:"note,omitempty"`
}

// Job is a job of a run, with its steps.
type Job struct {
	ID         int64  `json:"id"`
	Name       string `json:"name"`
	Status     string `json:"status"`
	Conclusion string `json:"conclusion,omitempty"`
	Steps      []Step `json:"steps,omitempty"`
}

// Step is a step of a job.
type Step struct {
	Number     int64  `json:"number"`
	Name       string `json:"name"`
	Status     string `json:"status"`
	Conclusion string `json:"conclusion,omitempty"`
}

// RunList is a page of runs.
type RunList struct {
	Runs []Run  `json:"runs"`
	Note string `json:"note,omitempty"`
}

// JobList is the jobs of a run.
type JobList struct {
	Jobs []Job  `json:"jobs"`
	Note string `json:"note,omitempty"`
}

// ListRunsIn filters a repository's runs.
type ListRunsIn struct {
	RepoArg
	Branch string `json:"branch,omitempty" jsonschema:"only runs on this branch"`
	Status string `json:"status,omitempty" jsonschema:"only runs in this status (queued, in_progress, completed, failure, success)"`
	Paging
	FieldsArg
}

// RunIn names a run.
type RunIn struct {
	RepoArg
	RunID int64 `json:"run_id" jsonschema:"the run's ID"`
}

// ExplainIn names a run, or a branch whose newest failed run to explain.
type ExplainIn struct {
	RepoArg
	RunID  int64  `json:"run_id,omitempty" jsonschema:"the run's ID (default: the newest failed run, of branch when given)"`
	Branch string `json:"branch,omitempty" jsonschema:"without run_id: the branch whose newest failed run to explain"`
}

// JobLogIn names a job and a page of its log.
type JobLogIn struct {
	RepoArg
	JobID int64 `json:"job_id" jsonschema:"the job's ID (see run_view)"`
	Page  int   `json:"page,omitempty" jsonschema:"page of the log counted from its end: 1 is the last 200 lines, 2 the 200 before them"`
}

// JobLog is a page of a job's log.
type JobLog struct {
	JobID int64  `json:"job_id"`
	Lines int    `json:"lines"`
	Total int    `json:"total_lines"`
	Text  string `json:"text" mcp:"paged"`
	Note  string `json:"note,omitempty"`
}

// Explanation is what `forge run explain` gives the agent: the run, its
// jobs and the log tails of the failed ones, redacted and budgeted.
type Explanation struct {
	RunID int64  `json:"run_id"`
	Text  string `json:"text" mcp:"paged"`
	Note  string `json:"note,omitempty"`
}

// explained is the run in names: by ID, else the newest failed run (of
// in.Branch), among the newest MaxScan.
func explained(ctx context.Context, c *client.Client, name client.RepoName, in ExplainIn) (*client.WorkflowRun, error) {
	if in.RunID != 0 {
		return c.Actions.GetRun(ctx, name, in.RunID)
	}
	scanned := 0
	for r, err := range c.Actions.ListRuns(ctx, name, client.RunListOptions{ListOptions: client.ListOptions{PerPage: MaxPerPage}, Branch: in.Branch}) {
		if err != nil {
			return nil, err
		}
		if r.Conclusion == "failure" {
			return r, nil
		}
		if scanned++; scanned >= MaxScan {
			break
		}
	}
	where := ""
	if in.Branch != "" {
		where = " on " + in.Branch
	}
	return nil, fmt.Errorf("no failed run%s among the newest %d runs; give run_id (runs_list lists them)", where, min(scanned, MaxScan))
}

// ExplainTokens is run_explain's budget (about 24 KiB of text).
const ExplainTokens = 6000

func actionTools() []toolDef {
	return []toolDef{
		handle("runs_list", listRuns),
		handle("run_view", viewRun),
		handle("run_jobs", runJobs),
		handle("job_log", jobLog),
		handle("run_explain", explainRun),
	}
}

// runOf is a run as t lets the model see it: its title and branch are
// withheld under lockdown when its actor may not write.
func (t trust) runOf(r *client.WorkflowRun) Run {
	return Run{ID: r.ID, Workflow: r.Name, Title: t.title(r.Actor.Login, r.DisplayTitle), Number: r.RunNumber, Event: r.Event, Status: r.Status,
		Conclusion: r.Conclusion, Branch: t.line("branch", r.Actor.Login, r.HeadBranch), Commit: r.HeadSHA, Actor: r.Actor.Login, CreatedAt: when(r.CreatedAt), URL: r.HTMLURL}
}

func jobOf(j *client.Job) Job {
	out := Job{ID: j.ID, Name: j.Name, Status: j.Status, Conclusion: j.Conclusion}
	for _, st := range j.Steps {
		out.Steps = append(out.Steps, Step{Number: st.Number, Name: st.Name, Status: st.Status, Conclusion: st.Conclusion})
	}
	return out
}

func listRuns(ctx context.Context, s *Server, in ListRunsIn) (RunList, error) {
	c, name, err := s.repo(ctx, in.RepoArg)
	if err != nil {
		return RunList{}, err
	}
	lo := listOptions()
	rs, note, err := pageOf(ctx, c.Actions.ListRuns(ctx, name, client.RunListOptions{ListOptions: lo, Branch: in.Branch, Status: in.Status}), in.Paging, lo.Pages)
	if err != nil {
		return RunList{}, err
	}
	trusted, err := s.trusted(ctx, c, name)
	return RunList{Runs: each(rs, trusted.runOf), Note: note}, err
}

func viewRun(ctx context.Context, s *Server, in RunIn) (Run, error) {
	c, name, err := s.repo(ctx, in.RepoArg)
	if err != nil {
		return Run{}, err
	}
	r, err := c.Actions.GetRun(ctx, name, in.RunID)
	if err != nil {
		return Run{}, err
	}
	trusted, err := s.trusted(ctx, c, name)
	if err != nil {
		return Run{}, err
	}
	jobs, err := runJobs(ctx, s, in)
	out := trusted.runOf(r)
	out.Jobs, out.Note = jobs.Jobs, jobs.Note
	return out, err
}

func runJobs(ctx context.Context, s *Server, in RunIn) (JobList, error) {
	c, name, err := s.repo(ctx, in.RepoArg)
	if err != nil {
		return JobList{}, err
	}
	lo := listOptions()
	js, note, err := pageOf(ctx, c.Actions.ListJobs(ctx, name, in.RunID, lo), Paging{PerPage: MaxPerPage}, lo.Pages)
	out := JobList{Jobs: each(js, jobOf), Note: note}
	return out, err
}

// jobLog reads the log through once, keeping only the lines of the page
// asked for (a log can be far larger than any answer).
func jobLog(ctx context.Context, s *Server, in JobLogIn) (JobLog, error) {
	c, name, err := s.repo(ctx, in.RepoArg)
	if err != nil {
		return JobLog{}, err
	}
	page := max(in.Page, 1)
	if page > MaxListPages {
		return JobLog{}, fmt.Errorf("page %d is too far back: ask for page %d or less", page, MaxListPages)
	}
	body, err := c.Actions.JobLogs(ctx, name, in.JobID)
	if err != nil {
		return JobLog{}, err
	}
	defer body.Close()
	keep := page * LogLines
	ring := make([]string, 0, keep)
	total := 0
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := cutBytes(strings.TrimSuffix(sc.Text(), "\r"), 1<<10)
		if len(ring) < keep {
			ring = append(ring, line)
		} else {
			ring[total%keep] = line
		}
		total++
	}
	if err := sc.Err(); err != nil && err != bufio.ErrTooLong {
		return JobLog{}, err
	}
	// ring holds the last min(total, keep) lines, oldest at total%keep.
	if total > keep {
		ring = append(ring[total%keep:], ring[:total%keep]...)
	}
	lines := ring[:max(0, len(ring)-(page-1)*LogLines)]
	lines = lines[max(0, len(lines)-LogLines):]
	logText := strings.Join(lines, "\n")
	out := JobLog{JobID: in.JobID, Lines: len(lines), Total: total}
	if len(logText) > LogBytes {
		logText = logText[len(logText)-LogBytes:]
		if i := strings.IndexByte(logText, '\n'); i >= 0 {
			logText = logText[i+1:]
		}
		out.Lines = strings.Count(logText, "\n") + 1
	}
	out.Text = logText
	shownFrom := total - (page-1)*LogLines - out.Lines
	if shownFrom > 0 {
		out.Note = fmt.Sprintf("truncated: lines %d-%d of %d shown; ask with page %d for the lines before", shownFrom+1, shownFrom+out.Lines, total, page+1)
	}
	return out, nil
}

func explainRun(ctx context.Context, s *Server, in ExplainIn) (Explanation, error) {
	c, name, err := s.repo(ctx, in.RepoArg)
	if err != nil {
		return Explanation{}, err
	}
	r, err := explained(ctx, c, name, in)
	if err != nil {
		return Explanation{}, err
	}
	in.RunID = r.ID
	trusted, err := s.trusted(ctx, c, name)
	if err != nil {
		return Explanation{}, err
	}
	jobs, err := client.Collect(c.Actions.ListJobs(ctx, name, in.RunID, client.ListOptions{PerPage: MaxPerPage}), 0)
	if err != nil {
		return Explanation{}, err
	}
	shown := *r // the run as lockdown lets the model see it
	shown.DisplayTitle = trusted.title(r.Actor.Login, r.DisplayTitle)
	shown.HeadBranch = trusted.line("branch", r.Actor.Login, r.HeadBranch)
	a, err := agentctx.Run(ctx, c, name, &shown, jobs, agentctx.Options{Redactor: s.opts.Redactor})
	if err != nil {
		return Explanation{}, err
	}
	chat.Fit([]*chat.Attachment{a}, ExplainTokens)
	out := Explanation{RunID: in.RunID, Text: a.Block()}
	if cuts := a.Cuts(); len(cuts) > 0 {
		out.Note = "truncated: " + strings.Join(cuts, "; ") + "; job_log with page 2 reads further back"
	}
	return out, nil
}
