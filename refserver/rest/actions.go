package rest

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/forgehq/forge/refserver/ci"
	"github.com/forgehq/forge/refserver/store"
)

func (a *API) actionRoutes() {
	a.handle("GET /repos/{owner}/{repo}/actions/runs", a.listRuns)
	a.handle("POST /repos/{owner}/{repo}/actions/runs", a.dispatchRun)
	a.handle("GET /repos/{owner}/{repo}/actions/runs/{id}", a.getRun)
	a.handle("GET /repos/{owner}/{repo}/actions/runs/{id}/jobs", a.listJobs)
	a.handle("POST /repos/{owner}/{repo}/actions/runs/{id}/cancel", a.cancelRun)
	a.handle("POST /repos/{owner}/{repo}/actions/runs/{id}/rerun", a.rerun)
	a.handle("GET /repos/{owner}/{repo}/actions/jobs/{id}", a.getJob)
	a.handle("GET /repos/{owner}/{repo}/actions/jobs/{id}/logs", a.jobLogs)
}

type runJSON struct {
	ID           int64      `json:"id"`
	Name         string     `json:"name"`
	DisplayTitle string     `json:"display_title"`
	RunNumber    int64      `json:"run_number"`
	Event        string     `json:"event"`
	Status       string     `json:"status"`
	Conclusion   *string    `json:"conclusion"`
	HeadBranch   string     `json:"head_branch"`
	HeadSHA      string     `json:"head_sha"`
	Actor        loginJSON  `json:"actor"`
	CreatedAt    time.Time  `json:"created_at"`
	UpdatedAt    time.Time  `json:"updated_at"`
	RunStartedAt *time.Time `json:"run_started_at"`
	HTMLURL      string     `json:"html_url"`
	JobsURL      string     `json:"jobs_url"`
}

type stepJSON struct {
	Name        string     `json:"name"`
	Number      int        `json:"number"`
	Status      string     `json:"status"`
	Conclusion  *string    `json:"conclusion"`
	StartedAt   *time.Time `json:"started_at"`
	CompletedAt *time.Time `json:"completed_at"`
}

type jobJSON struct {
	ID          int64      `json:"id"`
	RunID       int64      `json:"run_id"`
	Name        string     `json:"name"`
	Status      string     `json:"status"`
	Conclusion  *string    `json:"conclusion"`
	StartedAt   *time.Time `json:"started_at"`
	CompletedAt *time.Time `json:"completed_at"`
	Steps       []stepJSON `json:"steps"`
	HTMLURL     string     `json:"html_url"`
	LogsURL     string     `json:"logs_url"`
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func (a *API) runView(r *http.Request, x access, run store.Run, st ci.State) runJSON {
	id := strconv.FormatInt(run.ID, 10)
	return runJSON{ID: run.ID, Name: run.Name, DisplayTitle: run.Title, RunNumber: run.Number, Event: run.Event,
		Status: st.Status, Conclusion: nullable(st.Conclusion), HeadBranch: run.Branch, HeadSHA: run.SHA,
		Actor: a.actor(run), CreatedAt: run.CreatedAt, UpdatedAt: maxTime(st.UpdatedAt, run.CreatedAt),
		RunStartedAt: st.StartedAt, HTMLURL: origin(r) + "/" + x.repo.FullName() + "/actions/runs/" + id,
		JobsURL: origin(r) + Prefix + "/repos/" + x.repo.FullName() + "/actions/runs/" + id + "/jobs"}
}

// actor is who started run; a run recorded before runs kept the actor's
// ID is matched by login.
func (a *API) actor(run store.Run) loginJSON {
	id := run.ActorID
	if id == 0 {
		if u, ok := a.st.UserByLogin(run.Actor); ok {
			id = u.ID
		}
	}
	return loginJSON{Login: run.Actor, ID: id}
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func (a *API) jobView(r *http.Request, x access, run store.Run, j ci.JobState) jobJSON {
	id := strconv.FormatInt(j.ID, 10)
	out := jobJSON{ID: j.ID, RunID: run.ID, Name: j.Name, Status: j.Status, Conclusion: nullable(j.Conclusion),
		StartedAt: j.StartedAt, CompletedAt: j.CompletedAt, Steps: make([]stepJSON, len(j.Steps)),
		HTMLURL: origin(r) + "/" + x.repo.FullName() + "/actions/runs/" + strconv.FormatInt(run.ID, 10) + "/job/" + id,
		LogsURL: origin(r) + Prefix + "/repos/" + x.repo.FullName() + "/actions/jobs/" + id + "/logs"}
	for k, s := range j.Steps {
		out.Steps[k] = stepJSON{Name: s.Name, Number: s.Number, Status: s.Status, Conclusion: nullable(s.Conclusion),
			StartedAt: s.StartedAt, CompletedAt: s.CompletedAt}
	}
	return out
}

func (a *API) evaluate(run store.Run) ci.State { return ci.Evaluate(run.Plan, run.Clock, a.cfg.Now()) }

// step moves a Stepped run (a seeded one, for tests) one tick on as it is
// read, alone or in a list.
func (a *API) step(run store.Run) (store.Run, error) {
	if !run.Clock.Stepped {
		return run, nil
	}
	length := run.Plan.Length()
	return a.st.SetRunClock(run.ID, func(c *ci.Clock) { c.Step(length) })
}

// listRuns: GET /repos/{owner}/{repo}/actions/runs?status=&branch=&event=,
// newest first; status also accepts a conclusion (success, failure,
// cancelled).
func (a *API) listRuns(w http.ResponseWriter, r *http.Request, s *session) error {
	x, err := a.repoAccess(r, s)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	status, branch, event := q.Get("status"), q.Get("branch"), q.Get("event")
	switch status {
	case "", ci.Queued, ci.InProgress, ci.Completed, ci.Success, ci.Failure, ci.Cancelled:
	default:
		return errInvalid("query parameter status must be queued, in_progress, completed, success, failure or cancelled, not %q", status)
	}
	out := []runJSON{}
	for _, run := range a.st.Runs(x.repo.ID) {
		if branch != "" && run.Branch != branch || event != "" && run.Event != event {
			continue
		}
		if run, err = a.step(run); err != nil {
			return err
		}
		st := a.evaluate(run)
		if status != "" && st.Status != status && st.Conclusion != status {
			continue
		}
		out = append(out, a.runView(r, x, run, st))
	}
	page, err := paginate(w, r, out)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, page)
	return nil
}

// runAccess checks the caller may see the repository, then finds the run
// the path names: the first two steps of every run handler.
func (a *API) runAccess(r *http.Request, s *session) (access, store.Run, error) {
	x, err := a.repoAccess(r, s)
	if err != nil {
		return x, store.Run{}, err
	}
	run, err := a.run(r, x)
	return x, run, err
}

// run finds the run the path names.
func (a *API) run(r *http.Request, x access) (store.Run, error) {
	id, err := pathInt(r, "id")
	if err != nil {
		return store.Run{}, err
	}
	run, ok := a.st.RunByID(x.repo.ID, id)
	if !ok {
		return store.Run{}, errNotFound("workflow run %d not found in %s", id, x.repo.FullName())
	}
	return run, nil
}

// getRun: GET /repos/{owner}/{repo}/actions/runs/{id}.
func (a *API) getRun(w http.ResponseWriter, r *http.Request, s *session) error {
	x, run, err := a.runAccess(r, s)
	if err != nil {
		return err
	}
	if run, err = a.step(run); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, a.runView(r, x, run, a.evaluate(run)))
	return nil
}

// listJobs: GET /repos/{owner}/{repo}/actions/runs/{id}/jobs, in the
// order they run.
func (a *API) listJobs(w http.ResponseWriter, r *http.Request, s *session) error {
	x, run, err := a.runAccess(r, s)
	if err != nil {
		return err
	}
	st := a.evaluate(run)
	out := make([]jobJSON, len(st.Jobs))
	for k, j := range st.Jobs {
		out[k] = a.jobView(r, x, run, j)
	}
	page, err := paginate(w, r, out)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, page)
	return nil
}

func (a *API) job(r *http.Request, x access) (store.Run, ci.JobState, error) {
	id, err := pathInt(r, "id")
	if err != nil {
		return store.Run{}, ci.JobState{}, err
	}
	run, ok := a.st.RunOfJob(x.repo.ID, id)
	if ok {
		for _, j := range a.evaluate(run).Jobs {
			if j.ID == id {
				return run, j, nil
			}
		}
	}
	return store.Run{}, ci.JobState{}, errNotFound("job %d not found in %s", id, x.repo.FullName())
}

// getJob: GET /repos/{owner}/{repo}/actions/jobs/{id}.
func (a *API) getJob(w http.ResponseWriter, r *http.Request, s *session) error {
	x, err := a.repoAccess(r, s)
	if err != nil {
		return err
	}
	run, j, err := a.job(r, x)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, a.jobView(r, x, run, j))
	return nil
}

// jobLogs: GET /repos/{owner}/{repo}/actions/jobs/{id}/logs answers the
// log so far as text/plain, one timestamped line per entry; it grows
// while the job runs (X-Job-Status says whether it is complete). Range
// requests are honoured, so a follower can ask for the bytes it has not
// seen ("Range: bytes=N-").
func (a *API) jobLogs(w http.ResponseWriter, r *http.Request, s *session) error {
	x, err := a.repoAccess(r, s)
	if err != nil {
		return err
	}
	_, j, err := a.job(r, x)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Job-Status", j.Status)
	w.Header().Set("Cache-Control", "no-store")
	http.ServeContent(w, r, "", time.Time{}, strings.NewReader(j.Log))
	return nil
}

// cancelRun: POST /repos/{owner}/{repo}/actions/runs/{id}/cancel stops a
// run that has not completed (202); a completed run cannot be cancelled
// (409). Needs write permission.
func (a *API) cancelRun(w http.ResponseWriter, r *http.Request, s *session) error {
	x, run, err := a.runAccess(r, s)
	if err != nil {
		return err
	}
	if err := x.needWrite("cancelling a run"); err != nil {
		return err
	}
	if a.evaluate(run).Status == ci.Completed {
		return errConflict("workflow run %d has already completed", run.ID)
	}
	now := a.cfg.Now()
	run, err = a.st.SetRunClock(run.ID, func(c *ci.Clock) {
		t := c.TickAt(now)
		c.CancelAt = &t
		if c.Hold != nil && *c.Hold > t {
			c.Hold = &t
		}
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusAccepted, a.runView(r, x, run, a.evaluate(run)))
	return nil
}

// rerun: POST /repos/{owner}/{repo}/actions/runs/{id}/rerun queues a new
// run of the same workflow at the same commit (201 with the new run).
func (a *API) rerun(w http.ResponseWriter, r *http.Request, s *session) error {
	x, run, err := a.runAccess(r, s)
	if err != nil {
		return err
	}
	if err := x.needWrite("re-running a run"); err != nil {
		return err
	}
	plan := run.Plan
	plan.Jobs = append([]ci.JobPlan(nil), plan.Jobs...)
	next, err := a.st.CreateRun(x.repo.ID, store.Run{Name: run.Name, Title: run.Title, Event: run.Event, Branch: run.Branch,
		SHA: run.SHA, Actor: s.user.Login, Plan: plan, Clock: ci.Clock{Origin: a.cfg.Now(), Tick: a.cfg.CITick}})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, a.runView(r, x, next, a.evaluate(next)))
	return nil
}

// dispatchRun: POST /repos/{owner}/{repo}/actions/runs {ref, name,
// conclusion} starts a run of the default workflow on a branch (event
// workflow_dispatch); conclusion "failure" makes its test step fail.
// Needs write permission.
func (a *API) dispatchRun(w http.ResponseWriter, r *http.Request, s *session) error {
	x, err := a.repoAccess(r, s)
	if err != nil {
		return err
	}
	var in struct {
		Ref        *string `json:"ref"`
		Name       *string `json:"name"`
		Conclusion *string `json:"conclusion"`
	}
	if err := decode(w, r, &in); err != nil {
		return err
	}
	if err := x.needWrite("starting a run"); err != nil {
		return err
	}
	ref := x.repo.DefaultBranch
	if in.Ref != nil && *in.Ref != "" {
		ref = *in.Ref
	}
	g, err := a.gitRepo(x)
	if err != nil {
		return err
	}
	sha := g.Head(ref)
	if sha == "" {
		return errInvalid("ref %q is not a branch of %s", ref, x.repo.FullName())
	}
	plan := ci.DefaultPlan()
	switch deref(in.Conclusion) {
	case "", ci.Success:
	case ci.Failure:
		plan.FailJob, plan.FailStep = 2, 2
	default:
		return errInvalid("conclusion must be success or failure, not %q", deref(in.Conclusion))
	}
	name := "CI"
	if in.Name != nil && *in.Name != "" {
		name = *in.Name
	}
	run, err := a.st.CreateRun(x.repo.ID, store.Run{Name: name, Title: name + " on " + ref, Event: "workflow_dispatch",
		Branch: ref, SHA: sha, Actor: s.user.Login, Plan: plan, Clock: ci.Clock{Origin: a.cfg.Now(), Tick: a.cfg.CITick}})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, a.runView(r, x, run, a.evaluate(run)))
	return nil
}
