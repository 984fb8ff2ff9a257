package refserver_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
)

func TestCollaborators(t *testing.T) {
	t.Parallel()
	s := refservertest.Start(t)
	alice := mustUser(t, s, "alice", "alice-password-123", "")
	bob := mustUser(t, s, "bob", "bob-password-1234", "")
	mustUser(t, s, "carl", "carl-password-123", "")
	if _, err := s.CreateRepo("alice", "app", refserver.RepoOptions{}); err != nil {
		t.Fatal(err)
	}
	want(t, call(t, s, "POST", "/repos/alice/app/collaborators", bob, map[string]string{"username": "carl"}), 403)
	want(t, call(t, s, "POST", "/repos/alice/app/collaborators", alice, map[string]string{"username": "ghost"}), 404)
	want(t, call(t, s, "POST", "/repos/alice/app/collaborators", alice, map[string]string{"username": "bob", "permission": "owner"}), 400)
	want(t, call(t, s, "POST", "/repos/alice/app/collaborators", alice, map[string]string{}), 400)
	want(t, call(t, s, "POST", "/repos/alice/app/collaborators", alice, map[string]string{"username": "alice"}), 400)
	r := want(t, call(t, s, "POST", "/repos/alice/app/collaborators", alice, map[string]string{"username": "bob", "permission": "admin"}), 201)
	if r.obj["ok"] != true {
		t.Errorf("add answer %s", r.raw)
	}
	// bob is admin now and may add carl; changing a permission is 200.
	want(t, call(t, s, "POST", "/repos/alice/app/collaborators", bob, map[string]string{"username": "carl", "permission": "read"}), 201)
	want(t, call(t, s, "POST", "/repos/alice/app/collaborators", bob, map[string]string{"username": "carl", "permission": "write"}), 200)
	l := want(t, call(t, s, "GET", "/repos/alice/app/collaborators", alice, nil), 200)
	got := ""
	for _, x := range l.arr {
		m := x.(map[string]any)
		got += fmt.Sprintf("%s:%s ", m["login"], m["permission"])
	}
	if got != "alice:admin bob:admin carl:write " {
		t.Errorf("collaborators %q", got)
	}
	want(t, call(t, s, "DELETE", "/repos/alice/app/collaborators/carl", alice, nil), 200)
	want(t, call(t, s, "DELETE", "/repos/alice/app/collaborators/carl", alice, nil), 404)
}

func TestPullsAndReleases(t *testing.T) {
	t.Parallel()
	s := refservertest.Start(t)
	alice := mustUser(t, s, "alice", "alice-password-123", "")
	bob := mustUser(t, s, "bob", "bob-password-1234", "")
	if _, err := s.CreateRepo("alice", "app", refserver.RepoOptions{AutoInit: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreatePull("alice/app", refserver.PullSeed{Title: "Add login", Head: "login", Author: "bob"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreatePull("alice/app", refserver.PullSeed{Title: "Old idea", State: "merged"}); err != nil {
		t.Fatal(err)
	}
	l := want(t, call(t, s, "GET", "/repos/alice/app/pulls", bob, nil), 200)
	if len(l.arr) != 1 {
		t.Fatalf("open pulls %s", l.raw)
	}
	p := l.arr[0].(map[string]any)
	head := p["head"].(map[string]any)
	if p["number"] != float64(1) || p["title"] != "Add login" || p["state"] != "open" || head["ref"] != "login" ||
		len(head["sha"].(string)) != 40 || p["base"].(map[string]any)["ref"] != "main" || p["user"].(map[string]any)["login"] != "bob" ||
		p["html_url"] != s.URL()+"/alice/app/pull/1" || p["created_at"] == "" {
		t.Errorf("pull %v", p)
	}
	if l := want(t, call(t, s, "GET", "/repos/alice/app/pulls?state=all", bob, nil), 200); len(l.arr) != 2 {
		t.Errorf("all pulls %s", l.raw)
	}
	m := want(t, call(t, s, "GET", "/repos/alice/app/pulls/2", bob, nil), 200)
	if m.obj["merged"] != true || m.str("state") != "closed" || m.str("merged_at") == "" {
		t.Errorf("merged pull %s", m.raw)
	}
	want(t, call(t, s, "GET", "/repos/alice/app/pulls/3", bob, nil), 404)
	// Opening one over the API: branches must exist.
	want(t, call(t, s, "POST", "/repos/alice/app/pulls", bob, map[string]string{"title": "x", "head": "nope"}), 400)
	np := want(t, call(t, s, "POST", "/repos/alice/app/pulls", bob, map[string]string{"title": "Again", "head": "alice:login"}), 201)
	if np.obj["number"] != float64(3) {
		t.Errorf("new pull %s", np.raw)
	}

	// Releases: seeded and created; drafts hidden from readers.
	if _, err := s.CreateRelease("alice/app", refserver.ReleaseSeed{Tag: "v1.0.0", Name: "First"}); err != nil {
		t.Fatal(err)
	}
	want(t, call(t, s, "POST", "/repos/alice/app/releases", bob, map[string]any{"tag_name": "v2"}), 403)
	want(t, call(t, s, "POST", "/repos/alice/app/releases", alice, map[string]any{"name": "no tag"}), 400)
	want(t, call(t, s, "POST", "/repos/alice/app/releases", alice, map[string]any{"tag_name": "v1.0.0"}), 409)
	d := want(t, call(t, s, "POST", "/repos/alice/app/releases", alice, map[string]any{"tag_name": "v1.1.0-rc1", "prerelease": true, "draft": true}), 201)
	if d.obj["published_at"] != nil || d.obj["draft"] != true || d.obj["prerelease"] != true {
		t.Errorf("draft %s", d.raw)
	}
	rl := want(t, call(t, s, "GET", "/repos/alice/app/releases", bob, nil), 200)
	if len(rl.arr) != 1 {
		t.Fatalf("bob's releases %s", rl.raw)
	}
	r0 := rl.arr[0].(map[string]any)
	if r0["tag_name"] != "v1.0.0" || r0["name"] != "First" || r0["draft"] != false || r0["published_at"] == nil || r0["created_at"] == nil {
		t.Errorf("release %v", r0)
	}
	if rl := want(t, call(t, s, "GET", "/repos/alice/app/releases", alice, nil), 200); len(rl.arr) != 2 || rl.arr[0].(map[string]any)["tag_name"] != "v1.1.0-rc1" {
		t.Errorf("alice's releases %s", rl.raw)
	}
}

func TestRuns(t *testing.T) {
	t.Parallel()
	c := &clock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	s := refservertest.Start(t, refservertest.Clock(c.Now), refservertest.CITick(time.Second))
	alice := mustUser(t, s, "alice", "alice-password-123", "")
	bob := mustUser(t, s, "bob", "bob-password-1234", "")
	if _, err := s.CreateRepo("alice", "app", refserver.RepoOptions{AutoInit: true}); err != nil {
		t.Fatal(err)
	}
	run, err := s.CreateRun("alice/app", refserver.RunSeed{})
	if err != nil {
		t.Fatal(err)
	}
	runPath := fmt.Sprintf("/repos/alice/app/actions/runs/%d", run.ID)
	r := want(t, call(t, s, "GET", runPath, bob, nil), 200)
	if r.str("status") != "queued" || r.obj["conclusion"] != nil || r.str("head_branch") != "main" || len(r.str("head_sha")) != 40 ||
		r.str("event") != "push" || r.str("name") != "CI" || r.str("html_url") == "" {
		t.Errorf("queued run %s", r.raw)
	}
	jobs := want(t, call(t, s, "GET", runPath+"/jobs", bob, nil), 200)
	if len(jobs.arr) != 2 {
		t.Fatalf("jobs %s", jobs.raw)
	}
	job := jobs.arr[0].(map[string]any)
	jobID := int64(job["id"].(float64))
	if job["run_id"] != float64(run.ID) || job["name"] != "build" || job["status"] != "queued" || len(job["steps"].([]any)) != 3 {
		t.Errorf("job %v", job)
	}
	logPath := fmt.Sprintf("/repos/alice/app/actions/jobs/%d/logs", jobID)
	logOf := func() (string, http.Header) {
		req, _ := http.NewRequest("GET", s.BaseURL()+logPath, nil)
		req.Header.Set("Authorization", "token "+bob)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/plain") {
			t.Fatalf("logs: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
		}
		return string(b), res.Header
	}
	if l, h := logOf(); l != "" || h.Get("X-Job-Status") != "queued" {
		t.Errorf("log of a queued job %q", l)
	}
	c.Add(3 * time.Second)
	if r := want(t, call(t, s, "GET", runPath, bob, nil), 200); r.str("status") != "in_progress" || r.str("run_started_at") == "" {
		t.Errorf("run after 3 ticks %s", r.raw)
	}
	l1, _ := logOf()
	if !strings.Contains(l1, "==> Set up job") || !strings.Contains(l1, "Runner: forge-hosted") {
		t.Errorf("log after 3 ticks %q", l1)
	}
	c.Add(2 * time.Second)
	l2, _ := logOf()
	if !strings.HasPrefix(l2, l1) || len(l2) <= len(l1) {
		t.Errorf("log did not grow: %q then %q", l1, l2)
	}
	c.Add(time.Minute)
	r = want(t, call(t, s, "GET", runPath, bob, nil), 200)
	if r.str("status") != "completed" || r.str("conclusion") != "success" {
		t.Errorf("finished run %s", r.raw)
	}
	if l, h := logOf(); !strings.Contains(l, "go build ./...") || h.Get("X-Job-Status") != "completed" {
		t.Errorf("final log %q", l)
	}
	j := want(t, call(t, s, "GET", fmt.Sprintf("/repos/alice/app/actions/jobs/%d", jobID), bob, nil), 200)
	if j.str("conclusion") != "success" || j.str("completed_at") == "" {
		t.Errorf("job %s", j.raw)
	}

	// Seeded states, filters, cancel, rerun and dispatch.
	failed, _ := s.CreateRun("alice/app", refserver.RunSeed{Status: "completed", Conclusion: "failure", Branch: "dev"})
	held, _ := s.CreateRun("alice/app", refserver.RunSeed{Status: "in_progress"})
	if r := want(t, call(t, s, "GET", fmt.Sprintf("/repos/alice/app/actions/runs/%d", failed.ID), bob, nil), 200); r.str("conclusion") != "failure" {
		t.Errorf("failed run %s", r.raw)
	}
	if l := want(t, call(t, s, "GET", "/repos/alice/app/actions/runs?status=failure", bob, nil), 200); len(l.arr) != 1 {
		t.Errorf("failure filter %s", l.raw)
	}
	if l := want(t, call(t, s, "GET", "/repos/alice/app/actions/runs?branch=main", bob, nil), 200); len(l.arr) != 2 ||
		l.arr[0].(map[string]any)["id"] != float64(held.ID) {
		t.Errorf("branch filter, newest first %s", l.raw)
	}
	want(t, call(t, s, "GET", "/repos/alice/app/actions/runs?status=weird", bob, nil), 400)
	heldPath := fmt.Sprintf("/repos/alice/app/actions/runs/%d", held.ID)
	want(t, call(t, s, "POST", heldPath+"/cancel", bob, nil), 403)
	cr := want(t, call(t, s, "POST", heldPath+"/cancel", alice, nil), 202)
	if cr.str("status") != "completed" || cr.str("conclusion") != "cancelled" {
		t.Errorf("cancelled %s", cr.raw)
	}
	want(t, call(t, s, "POST", heldPath+"/cancel", alice, nil), 409)
	rr := want(t, call(t, s, "POST", heldPath+"/rerun", alice, nil), 201)
	if rr.str("status") != "queued" || rr.obj["run_number"] != float64(4) {
		t.Errorf("rerun %s", rr.raw)
	}
	d := want(t, call(t, s, "POST", "/repos/alice/app/actions/runs", alice, map[string]string{"ref": "main", "conclusion": "failure"}), 201)
	c.Add(time.Hour)
	if r := want(t, call(t, s, "GET", fmt.Sprintf("/repos/alice/app/actions/runs/%v", d.obj["id"]), alice, nil), 200); r.str("conclusion") != "failure" {
		t.Errorf("dispatched failing run %s", r.raw)
	}
	want(t, call(t, s, "POST", "/repos/alice/app/actions/runs", alice, map[string]string{"ref": "nope"}), 400)
	want(t, call(t, s, "GET", "/repos/alice/app/actions/runs/999999", alice, nil), 404)
	want(t, call(t, s, "GET", "/repos/alice/app/actions/jobs/999999/logs", alice, nil), 404)
}

// A run's actor carries the user's ID, for seeded, dispatched and
// re-run runs alike.
func TestRunActorHasTheUsersID(t *testing.T) {
	t.Parallel()
	s := refservertest.Start(t)
	alice := mustUser(t, s, "alice", "alice-password-123", "")
	bob := mustUser(t, s, "bob", "bob-password-1234", "")
	if _, err := s.CreateRepo("alice", "app", refserver.RepoOptions{AutoInit: true}); err != nil {
		t.Fatal(err)
	}
	if err := s.AddCollaborator("alice/app", "bob", "write"); err != nil {
		t.Fatal(err)
	}
	ids := map[string]float64{}
	for login, tok := range map[string]string{"alice": alice, "bob": bob} {
		ids[login] = want(t, call(t, s, "GET", "/me", tok, nil), 200).obj["id"].(float64)
	}
	seeded, err := s.CreateRun("alice/app", refserver.RunSeed{})
	if err != nil {
		t.Fatal(err)
	}
	runs := []resp{
		want(t, call(t, s, "GET", fmt.Sprintf("/repos/alice/app/actions/runs/%d", seeded.ID), bob, nil), 200),
		want(t, call(t, s, "POST", "/repos/alice/app/actions/runs", bob, map[string]string{"ref": "main"}), 201),
		want(t, call(t, s, "POST", fmt.Sprintf("/repos/alice/app/actions/runs/%d/rerun", seeded.ID), bob, nil), 201),
	}
	for i, r := range runs {
		a := r.obj["actor"].(map[string]any)
		if a["id"] != ids[a["login"].(string)] || a["id"] == float64(0) {
			t.Errorf("run %d: actor %v, want the id of %v (%v)", i, a, a["login"], ids)
		}
	}
	if l := want(t, call(t, s, "GET", "/repos/alice/app/actions/runs", bob, nil), 200); l.arr[0].(map[string]any)["actor"].(map[string]any)["id"] != ids["bob"] {
		t.Errorf("listed run's actor %v", l.arr[0])
	}
}
