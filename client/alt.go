package client

import (
	"encoding/json"
	"strconv"
	"strings"
)

// The spec does not show the fields of runs, jobs, pull requests, releases
// and invites. forge decodes GitHub's names (the reference server's) and,
// in each record's fix, fills what is missing from the names Gitea and
// GitLab use. --json still passes the record as the server sent it.

// person reads a user given as an object ({"login": ...} or
// {"username": ...}) or as a bare name.
type person struct{ Login string }

func (p *person) UnmarshalJSON(b []byte) error {
	var name string
	if json.Unmarshal(b, &name) == nil {
		p.Login = name
		return nil
	}
	var u struct {
		Login    string `json:"login"`
		Username string `json:"username"`
		Name     string `json:"name"`
	}
	if json.Unmarshal(b, &u) == nil {
		p.Login = first(u.Login, u.Username, u.Name)
	}
	return nil
}

// first is the first non-empty string.
func first(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// fill sets *dst to the first non-empty alternative when it is empty.
func fill(dst *string, alts ...string) {
	if *dst == "" {
		*dst = first(alts...)
	}
}

// flexID reads an ID sent as a number or as a JSON string holding one
// ("42"): a service may send its IDs as strings, which the typed field
// (int64) leaves 0.
type flexID int64

func (f *flexID) UnmarshalJSON(b []byte) error {
	var n json.Number // takes 42 and "42"
	if json.Unmarshal(b, &n) == nil {
		v, _ := n.Int64()
		*f = flexID(v)
	}
	return nil
}

// fillID sets *dst from an ID read by flexID when the typed field was
// left 0 (the service sent a string).
func fillID(dst *int64, alt flexID) {
	if *dst == 0 {
		*dst = int64(alt)
	}
}

// fix reads a user's login from username (GitLab).
func (u *User) fix() {
	if u.Login != "" {
		return
	}
	var alt struct {
		Username string `json:"username"`
	}
	if decode(u.raw, &alt) == nil {
		u.Login = alt.Username
	}
}

// runStates maps the status words of other services to GitHub's: a
// status that is a result becomes the conclusion of a completed run.
var runStates = map[string]struct{ status, conclusion string }{
	"success":         {"completed", "success"},
	"failure":         {"completed", "failure"},
	"failed":          {"completed", "failure"},
	"error":           {"completed", "failure"},
	"cancelled":       {"completed", "cancelled"},
	"canceled":        {"completed", "cancelled"},
	"skipped":         {"completed", "skipped"},
	"timed_out":       {"completed", "timed_out"},
	"neutral":         {"completed", "neutral"},
	"startup_failure": {"completed", "startup_failure"},
	"running":         {"in_progress", ""},
}

// normalState gives a run's or job's status and conclusion in GitHub's
// words: a result in status (Gitea, GitLab) becomes the conclusion.
func normalState(status, conclusion *string) {
	s := strings.ToLower(strings.TrimSpace(*status))
	if m, ok := runStates[s]; ok && *conclusion == "" {
		*status, *conclusion = m.status, m.conclusion
	}
	if m, ok := runStates[strings.ToLower(*conclusion)]; ok && m.conclusion != "" {
		*conclusion = m.conclusion
	}
}

// Failed is forge's one rule for "this run or job failed": it finished
// with a conclusion other than success, skipped or neutral (a cancelled
// or timed-out job did not do its work either). Records are read with
// their results normalized (a status of "failure" or "failed" without a
// conclusion is the conclusion failure), so this holds for every service.
func Failed(conclusion string) bool {
	switch conclusion {
	case "", "success", "skipped", "neutral":
		return false
	}
	return true
}

// Failed reports whether the run finished without succeeding.
func (r *WorkflowRun) Failed() bool { return Failed(r.Conclusion) }

// Failed reports whether the job finished without succeeding.
func (j *Job) Failed() bool { return Failed(j.Conclusion) }

func (r *WorkflowRun) fix() {
	var alt struct {
		Title        string `json:"title"`
		Workflow     string `json:"workflow"`
		WorkflowName string `json:"workflow_name"`
		CommitSHA    string `json:"commit_sha"`
		SHA          string `json:"sha"`
		Ref          string `json:"ref"`
		Branch       string `json:"branch"`
		TriggerUser  person `json:"trigger_user"`
		TriggeredBy  person `json:"triggered_by"`
		User         person `json:"user"`
		Number       int64  `json:"number"`
		WebURL       string `json:"web_url"`
		ID           flexID `json:"id"`
		RunNumber    flexID `json:"run_number"`
	}
	if decode(r.raw, &alt) == nil {
		fillID(&r.ID, alt.ID)
		fillID(&r.RunNumber, alt.RunNumber)
		fill(&r.DisplayTitle, alt.Title)
		fill(&r.Name, alt.WorkflowName, alt.Workflow)
		fill(&r.HeadSHA, alt.CommitSHA, alt.SHA)
		fill(&r.HeadBranch, alt.Ref, alt.Branch)
		fill(&r.Actor.Login, alt.TriggerUser.Login, alt.TriggeredBy.Login, alt.User.Login)
		fill(&r.HTMLURL, alt.WebURL)
		if r.RunNumber == 0 {
			r.RunNumber = alt.Number
		}
	}
	normalState(&r.Status, &r.Conclusion)
}

func (j *Job) fix() {
	var alt struct {
		Stage  string `json:"stage"`
		WebURL string `json:"web_url"`
		ID     flexID `json:"id"`
		RunID  flexID `json:"run_id"`
	}
	if decode(j.raw, &alt) == nil {
		fillID(&j.ID, alt.ID)
		fillID(&j.RunID, alt.RunID)
		fill(&j.Name, alt.Stage)
		fill(&j.HTMLURL, alt.WebURL)
	}
	// A job without a name is called by its ID, so no line or row is
	// left without one.
	fill(&j.Name, strconv.FormatInt(j.ID, 10))
	normalState(&j.Status, &j.Conclusion)
	for i := range j.Steps {
		normalState(&j.Steps[i].Status, &j.Steps[i].Conclusion)
	}
}

func (p *PullRequest) fix() {
	var alt struct {
		IID          int64  `json:"iid"`
		Author       person `json:"author"`
		SourceBranch string `json:"source_branch"`
		TargetBranch string `json:"target_branch"`
		WebURL       string `json:"web_url"`
		Description  string `json:"description"`
	}
	if decode(p.raw, &alt) == nil {
		if p.Number == 0 {
			p.Number = alt.IID
		}
		fill(&p.User.Login, alt.Author.Login)
		fill(&p.Head.Ref, alt.SourceBranch)
		fill(&p.Base.Ref, alt.TargetBranch)
		fill(&p.HTMLURL, alt.WebURL)
		fill(&p.Body, alt.Description)
	}
	switch strings.ToLower(p.State) {
	case "opened": // GitLab
		p.State = "open"
	case "merged": // GitLab
		p.State, p.Merged = "closed", true
	case "locked":
		p.State = "closed"
	}
}

// Open reports whether the pull request is open.
func (p *PullRequest) Open() bool { return strings.EqualFold(p.State, "open") }

// IsMerged reports whether the pull request was merged: GitHub's merged
// flag or merged_at, or a state of merged (GitLab).
func (p *PullRequest) IsMerged() bool {
	return p.Merged || !p.MergedAt.IsZero() || strings.EqualFold(p.State, "merged")
}

// StateWord is what a person calls the pull request's state, the same in
// forge pr, the TUI and an agent's context: open, draft, merged or closed
// (merged and draft are flags on top of the service's open and closed;
// a draft that was closed is closed). A state forge does not know is the
// service's word in lower case, "unknown" when there is none; the caller
// makes it safe.
func (p *PullRequest) StateWord() string {
	switch {
	case p.IsMerged():
		return "merged"
	case strings.EqualFold(p.State, "closed"):
		return "closed"
	case p.Draft:
		return "draft"
	case p.Open():
		return "open"
	case p.State == "":
		return "unknown"
	}
	return strings.ToLower(p.State)
}

// fix reads is_prerelease (Gitea), upcoming_release (GitLab) and the
// dates of other services; a release that says nothing of being a
// pre-release is one when its tag has a semantic-version pre-release part
// (v1.1.0-rc1).
func (r *Release) fix() {
	var alt struct {
		Prerelease      *bool  `json:"prerelease"`
		IsPrerelease    *bool  `json:"is_prerelease"`
		UpcomingRelease *bool  `json:"upcoming_release"`
		ReleasedAt      Time   `json:"released_at"`
		Description     string `json:"description"`
	}
	if decode(r.raw, &alt) != nil {
		return
	}
	switch {
	case alt.Prerelease != nil:
	case alt.IsPrerelease != nil:
		r.Prerelease = *alt.IsPrerelease
	case alt.UpcomingRelease != nil:
		r.Prerelease = *alt.UpcomingRelease
	default:
		r.Prerelease = semverPrerelease(r.TagName)
	}
	if r.PublishedAt.IsZero() {
		r.PublishedAt = alt.ReleasedAt
	}
	fill(&r.Body, alt.Description)
}

// semverPrerelease reports whether a tag (v1.2.3-rc1) has a semantic
// version's pre-release part.
func semverPrerelease(tag string) bool {
	v := strings.TrimPrefix(strings.TrimPrefix(tag, "v"), "V")
	core, pre, ok := strings.Cut(v, "-")
	if !ok || pre == "" {
		return false
	}
	core, _, _ = strings.Cut(core, "+")
	parts := strings.Split(core, ".")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}
