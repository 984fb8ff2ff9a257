package mcpserver

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/mcptools"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/mcpserver/mcpservertest"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/ci"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestReadOnlyByDefaultListsNoWriteTool(t *testing.T) {
	h := mcpservertest.NewWorld(t)
	s := serve(t, h)
	if got, want := s.ToolNames(), mcpservertest.ReadTools(); !slices.Equal(got, want) {
		t.Errorf("tools:\n got %v\nwant %v", got, want)
	}
	// A write tool is not there to call either.
	res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: "issue_create", Arguments: map[string]any{"title": "x"}})
	if err == nil && !res.IsError {
		t.Fatal("issue_create ran on a read-only server")
	}
	if _, err := h.REST().Issues.Get(context.Background(), mcpservertest.Demo, 1); !client.IsNotFound(err) {
		t.Fatalf("an issue was created (%v)", err)
	}
	if code := s.Stop(); code != 0 {
		t.Errorf("exit %d; stderr %s", code, s.Stderr)
	}
}

func TestWriteToolsChangeTheService(t *testing.T) {
	h := mcpservertest.NewWorld(t)
	s := serve(t, h, allowWrite)
	var is Issue
	s.Call("issue_create", map[string]any{"title": "From the assistant", "body": "Found by a model."}, &is)
	if is.Number != 1 || is.State != "open" || is.Author != "alice" {
		t.Fatalf("created %+v", is)
	}
	var cm Comment
	s.Call("issue_comment", map[string]any{"number": 1, "body": "More detail."}, &cm)
	s.Call("issue_close", map[string]any{"number": 1}, &is)
	if is.State != "closed" {
		t.Errorf("after issue_close: %+v", is)
	}
	s.Call("issue_reopen", map[string]any{"number": 1}, &is)
	got, err := h.REST().Issues.Get(context.Background(), mcpservertest.Demo, 1)
	if err != nil || got.State != "open" || len(got.CommentsList) != 1 || got.CommentsList[0].Body != "More detail." {
		t.Errorf("the service holds %+v (%v)", got, err)
	}
	for _, tool := range s.Tools() {
		write := !tool.Annotations.ReadOnlyHint
		if write != strings.HasPrefix(tool.Description, "WRITE: ") {
			t.Errorf("%s: read-only hint %v, description %q", tool.Name, tool.Annotations.ReadOnlyHint, tool.Description)
		}
	}
}

func TestReadTools(t *testing.T) {
	h := mcpservertest.NewWorld(t)
	srv := h.Srv
	if _, err := srv.CommitFiles("alice/demo", "", map[string]string{"docs/guide.md": "# Guide\n"}, "docs: a guide"); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.CreateIssue("alice/demo", "carol", "Crash on start", "It crashes."); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.CreateIssue("alice/demo", "bob", "Typo in README", "teh"); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.AddComment("alice/demo", 1, "alice", "Confirmed."); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.CreatePull("alice/demo", refserver.PullSeed{Title: "Fix the crash", Body: "Fixes #1", Author: "carol", Head: "fix", Base: "main"}); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.CreateRelease("alice/demo", refserver.ReleaseSeed{Tag: "v1.0.0", Name: "First", Body: "The first release.", Author: "alice"}); err != nil {
		t.Fatal(err)
	}
	run, err := srv.CreateRun("alice/demo", refserver.RunSeed{Status: ci.Completed, Conclusion: ci.Failure, Tick: time.Hour,
		Jobs: []ci.JobPlan{{Name: "test", Steps: []ci.StepPlan{{Name: "Test", Lines: []string{"ok 1", "FAIL: TestCrash", "token fgt_abcdefghijklmnop", "password registry-Secret-42"}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	h.Env["FORGE_PASSWORD"] = "registry-Secret-42" // a secret forge holds, masked by value
	s := serve(t, h)

	var repos RepoList
	s.Call("repos_list", nil, &repos)
	if len(repos.Repos) != 1 || repos.Repos[0].FullName != "alice/demo" {
		t.Errorf("repos_list: %+v", repos)
	}
	var repo Repo
	s.Call("repo_view", map[string]any{"repo": "alice/demo"}, &repo)
	if repo.FullName != "alice/demo" || repo.DefaultBranch != "main" || repo.CanWrite == nil || !*repo.CanWrite {
		t.Errorf("repo_view: %+v", repo)
	}
	var dir, file Contents
	s.Call("repo_contents", map[string]any{"path": "docs"}, &dir)
	if dir.Type != "dir" || len(dir.Entries) != 1 || dir.Entries[0].Name != "guide.md" {
		t.Errorf("repo_contents docs: %+v", dir)
	}
	s.Call("repo_contents", map[string]any{"path": "docs/guide.md"}, &file)
	if file.Type != "file" || file.Text != "# Guide\n" || file.Note != "" {
		t.Errorf("repo_contents docs/guide.md: %+v", file)
	}
	var commits CommitList
	s.Call("repo_commits", nil, &commits)
	if len(commits.Commits) < 2 || strings.TrimSpace(commits.Commits[0].Message) != "docs: a guide" {
		t.Errorf("repo_commits: %+v", commits)
	}
	var collabs CollaboratorList
	s.Call("repo_collaborators", nil, &collabs)
	if !strings.Contains(fmt.Sprint(collabs.Collaborators), "{carol write}") {
		t.Errorf("repo_collaborators: %+v", collabs)
	}

	var issues IssueList
	s.Call("issues_list", map[string]any{"author": "bob"}, &issues)
	if len(issues.Issues) != 1 || issues.Issues[0].Title != "Typo in README" {
		t.Errorf("issues_list author bob: %+v", issues)
	}
	s.Call("issues_list", map[string]any{"search": "CRASH"}, &issues)
	if len(issues.Issues) != 1 || issues.Issues[0].Number != 1 {
		t.Errorf("issues_list search CRASH: %+v", issues)
	}
	var is Issue
	s.Call("issue_view", map[string]any{"number": 1}, &is)
	if is.Body != "It crashes." || len(is.Thread) != 1 || is.Thread[0].Body != "Confirmed." || is.Thread[0].Author != "alice" {
		t.Errorf("issue_view: %+v", is)
	}

	var pulls PullList
	s.Call("prs_list", nil, &pulls)
	if len(pulls.Pulls) != 1 || pulls.Pulls[0].Head != "fix" {
		t.Errorf("prs_list: %+v", pulls)
	}
	var pull Pull
	s.Call("pr_view", map[string]any{"number": pulls.Pulls[0].Number}, &pull)
	if pull.Body != "Fixes #1" {
		t.Errorf("pr_view: %+v", pull)
	}
	var rels ReleaseList
	s.Call("releases_list", nil, &rels)
	var rel Release
	s.Call("release_view", map[string]any{"tag": "v1.0.0"}, &rel)
	if len(rels.Releases) != 1 || rel.Body != "The first release." {
		t.Errorf("releases: %+v, %+v", rels, rel)
	}
	if msg := s.Fail("release_view", map[string]any{"tag": "v9"}); msg != `no release of tag "v9" in alice/demo; see releases_list` {
		t.Errorf("release_view v9: %q", msg)
	}

	var runs RunList
	s.Call("runs_list", nil, &runs)
	if len(runs.Runs) != 1 || runs.Runs[0].ID != run.ID || runs.Runs[0].Conclusion != "failure" {
		t.Errorf("runs_list: %+v", runs)
	}
	var rv Run
	s.Call("run_view", map[string]any{"run_id": run.ID}, &rv)
	if len(rv.Jobs) != 1 || rv.Jobs[0].Name != "test" {
		t.Fatalf("run_view: %+v", rv)
	}
	var jobs JobList
	s.Call("run_jobs", map[string]any{"run_id": run.ID}, &jobs)
	if len(jobs.Jobs) != 1 || len(jobs.Jobs[0].Steps) == 0 {
		t.Errorf("run_jobs: %+v", jobs)
	}
	var log JobLog
	s.Call("job_log", map[string]any{"job_id": rv.Jobs[0].ID}, &log)
	if !strings.Contains(log.Text, "FAIL: TestCrash") || strings.Contains(log.Text, "fgt_abcdefghijklmnop") || strings.Contains(log.Text, "registry-Secret-42") || log.Note != "" {
		t.Errorf("job_log: %+v", log)
	}
	var ex Explanation
	s.Call("run_explain", map[string]any{"run_id": run.ID}, &ex)
	if !strings.Contains(ex.Text, "FAIL: TestCrash") || !strings.Contains(ex.Text, "job test (ID") || strings.Contains(ex.Text, "fgt_abcdefghijklmnop") ||
		strings.Contains(ex.Text, "registry-Secret-42") {
		t.Errorf("run_explain: %+v", ex)
	}

	var me Account
	raw := s.Call("whoami", nil, &me)
	if me.Login != "alice" || me.TwoFAEnabled || strings.Contains(raw, h.Env["FORGE_TOKEN"]) {
		t.Errorf("whoami: %s", raw)
	}
}

// Started by hand on a terminal, serve says what it is for; the end of
// its input ends it.
func TestServeOnATerminalSaysWhatItIsFor(t *testing.T) {
	h := mcpservertest.NewWorld(t)
	ios, _, _, errOut := iostreams.Test()
	ios.SetStdinTTY(true)
	code := cmdcore.ExitCode(Serve(context.Background(), h.Factory(ios), mcptools.ServeOptions{}))
	if code != 0 || !strings.Contains(errOut.String(), "for an assistant to launch: `forge mcp config` prints the snippet") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
