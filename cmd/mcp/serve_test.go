package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/mcptools"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/mcpserver"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/ci"
	"github.com/forgehq/forge/refserver/refservertest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// harness is a reference server and the environment forge runs in.
type harness struct {
	t   *testing.T
	Srv *refserver.Server
	Env map[string]string
}

// world is a reference server with alice's repository alice/demo, bob a
// collaborator with read access and carol one with write access, and the
// environment forge runs in as alice.
func world(t *testing.T) *harness {
	t.Helper()
	srv := refservertest.Start(t)
	h := &harness{t: t, Srv: srv, Env: refservertest.Env(t, srv, "alice")}
	for _, u := range []string{"bob", "carol"} {
		refservertest.User(t, srv, u, "")
	}
	if _, err := srv.CreateRepo("alice", "demo", refserver.RepoOptions{AutoInit: true}); err != nil {
		t.Fatal(err)
	}
	if err := srv.AddCollaborator("alice/demo", "bob", "read"); err != nil {
		t.Fatal(err)
	}
	if err := srv.AddCollaborator("alice/demo", "carol", "write"); err != nil {
		t.Fatal(err)
	}
	h.Env["FORGE_REPO"] = "alice/demo"
	return h
}

// loginAs makes forge act as login.
func (h *harness) loginAs(login string) {
	for k, v := range refservertest.Env(h.t, h.Srv, login) {
		if k != "FORGE_CONFIG_DIR" && k != "HOME" {
			h.Env[k] = v
		}
	}
}

// result is what a run of forge left.
type result struct {
	Code     int
	Out, Err string
}

// run runs forge in-process, piped, with h.Env.
func (h *harness) run(args ...string) result {
	ios, _, out, errOut := iostreams.Test()
	env := maps(h.Env)
	code := cmd.Run(context.Background(), cmdutil.New(ios, func(k string) string { return env[k] }), args)
	return result{code, out.String(), errOut.String()}
}

// session is a running `forge mcp serve` and the SDK's client connected
// to it over its stdin and stdout.
type session struct {
	*mcp.ClientSession
	t      *testing.T
	code   chan int
	stderr *lockedBuffer
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// serve runs `forge mcp serve ARGS` in-process, as an assistant would
// launch it, and connects the SDK's client over its stdio.
func serve(t *testing.T, h *harness, args ...string) *session {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ios, _, _, _ := iostreams.Test()
	errOut := &lockedBuffer{}
	ios.In, ios.Out, ios.ErrOut = inR, outW, errOut
	env := maps(h.Env)
	f := cmdutil.New(ios, func(k string) string { return env[k] })
	s := &session{t: t, code: make(chan int, 1), stderr: errOut}
	go func() {
		s.code <- cmd.Run(context.Background(), f, append([]string{"mcp", "serve"}, args...))
		outW.Close()
	}()
	c := mcp.NewClient(&mcp.Implementation{Name: "forge-test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatalf("connecting: %v; stderr: %s", err, errOut)
	}
	s.ClientSession = cs
	t.Cleanup(func() { s.stop() })
	return s
}

var demo = client.RepoName{Owner: "alice", Name: "demo"}

// rest is a client of the reference server as alice, to check what the
// tools did.
func rest(t *testing.T, h *harness) *client.Client {
	c, err := client.New(h.Srv.BaseURL(), h.Env["FORGE_TOKEN"])
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func maps(m map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// stop closes the client's side; forge sees the end of its stdin and
// exits 0.
func (s *session) stop() int {
	s.ClientSession.Close()
	select {
	case code := <-s.code:
		s.code <- code
		return code
	case <-time.After(30 * time.Second):
		s.t.Fatal("forge mcp serve did not exit after its stdin closed")
		return -1
	}
}

func (s *session) toolNames() []string {
	s.t.Helper()
	var names []string
	for tool, err := range s.Tools(context.Background(), nil) {
		if err != nil {
			s.t.Fatal(err)
		}
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

// call calls a tool that must succeed and decodes its structured result.
func (s *session) call(name string, args map[string]any, out any) string {
	s.t.Helper()
	res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		s.t.Fatalf("%s: %v", name, err)
	}
	txt := resultText(res)
	if res.IsError {
		s.t.Fatalf("%s: tool error %q", name, txt)
	}
	b, _ := json.Marshal(res.StructuredContent)
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			s.t.Fatalf("%s: %v in %s", name, err, b)
		}
	}
	return string(b)
}

// fail calls a tool that must fail and returns the error's text.
func (s *session) fail(name string, args map[string]any) string {
	s.t.Helper()
	res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		s.t.Fatalf("%s: a protocol error (%v), want a tool error", name, err)
	}
	if !res.IsError {
		s.t.Fatalf("%s succeeded: %s", name, resultText(res))
	}
	return resultText(res)
}

func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func readTools() []string {
	var out []string
	for _, ti := range mcptools.All {
		if !ti.Write {
			out = append(out, ti.Name)
		}
	}
	slices.Sort(out)
	return out
}

func TestReadOnlyByDefaultListsNoWriteTool(t *testing.T) {
	h := world(t)
	s := serve(t, h)
	if got, want := s.toolNames(), readTools(); !slices.Equal(got, want) {
		t.Errorf("tools:\n got %v\nwant %v", got, want)
	}
	// A write tool is not there to call either.
	res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: "issue_create", Arguments: map[string]any{"title": "x"}})
	if err == nil && !res.IsError {
		t.Fatal("issue_create ran on a read-only server")
	}
	if _, err := rest(t, h).Issues.Get(context.Background(), demo, 1); !client.IsNotFound(err) {
		t.Fatalf("an issue was created (%v)", err)
	}
	if code := s.stop(); code != 0 {
		t.Errorf("exit %d; stderr %s", code, s.stderr)
	}
}

func TestToolsetsAndToolsNarrowTheOffer(t *testing.T) {
	h := world(t)
	if got := serve(t, h, "--toolsets", "pulls,releases").toolNames(); !slices.Equal(got, []string{"pr_view", "prs_list", "release_view", "releases_list"}) {
		t.Errorf("--toolsets pulls,releases: %v", got)
	}
	h.Env["FORGE_MCP_TOOLS"] = "whoami, issue_view"
	if got := serve(t, h).toolNames(); !slices.Equal(got, []string{"issue_view", "whoami"}) {
		t.Errorf("FORGE_MCP_TOOLS: %v", got)
	}
	h.Env["FORGE_MCP_ALLOW_WRITE"] = "1"
	h.Env["FORGE_MCP_TOOLS"] = ""
	if got := serve(t, h, "--toolsets", "issues").toolNames(); !slices.Equal(got, []string{"issue_close", "issue_comment", "issue_create", "issue_reopen", "issue_view", "issues_list"}) {
		t.Errorf("FORGE_MCP_ALLOW_WRITE=1 --toolsets issues: %v", got)
	}
	r := h.run("mcp", "serve", "--toolsets", "wiki")
	if r.Code != 2 || !strings.Contains(r.Err, `unknown toolset "wiki"; the toolsets are repos, issues, pulls`) {
		t.Errorf("unknown toolset: exit %d, %q", r.Code, r.Err)
	}
}

func TestWriteToolsChangeTheService(t *testing.T) {
	h := world(t)
	s := serve(t, h, "--allow-write")
	var is mcpserver.Issue
	s.call("issue_create", map[string]any{"title": "From the assistant", "body": "Found by a model."}, &is)
	if is.Number != 1 || is.State != "open" || is.Author != "alice" {
		t.Fatalf("created %+v", is)
	}
	var cm mcpserver.Comment
	s.call("issue_comment", map[string]any{"number": 1, "body": "More detail."}, &cm)
	s.call("issue_close", map[string]any{"number": 1}, &is)
	if is.State != "closed" {
		t.Errorf("after issue_close: %+v", is)
	}
	s.call("issue_reopen", map[string]any{"number": 1}, &is)
	got, err := rest(t, h).Issues.Get(context.Background(), demo, 1)
	if err != nil || got.State != "open" || len(got.CommentsList) != 1 || got.CommentsList[0].Body != "More detail." {
		t.Errorf("the service holds %+v (%v)", got, err)
	}
	var tools []*mcp.Tool
	for tool, err := range s.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		tools = append(tools, tool)
	}
	for _, tool := range tools {
		write := !tool.Annotations.ReadOnlyHint
		if write != strings.HasPrefix(tool.Description, "WRITE: ") {
			t.Errorf("%s: read-only hint %v, description %q", tool.Name, tool.Annotations.ReadOnlyHint, tool.Description)
		}
	}
}

func TestReadTools(t *testing.T) {
	h := world(t)
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

	var repos mcpserver.RepoList
	s.call("repos_list", nil, &repos)
	if len(repos.Repos) != 1 || repos.Repos[0].FullName != "alice/demo" {
		t.Errorf("repos_list: %+v", repos)
	}
	var repo mcpserver.Repo
	s.call("repo_view", map[string]any{"repo": "alice/demo"}, &repo)
	if repo.FullName != "alice/demo" || repo.DefaultBranch != "main" || repo.CanWrite == nil || !*repo.CanWrite {
		t.Errorf("repo_view: %+v", repo)
	}
	var dir, file mcpserver.Contents
	s.call("repo_contents", map[string]any{"path": "docs"}, &dir)
	if dir.Type != "dir" || len(dir.Entries) != 1 || dir.Entries[0].Name != "guide.md" {
		t.Errorf("repo_contents docs: %+v", dir)
	}
	s.call("repo_contents", map[string]any{"path": "docs/guide.md"}, &file)
	if file.Type != "file" || file.Text != "# Guide\n" || file.Note != "" {
		t.Errorf("repo_contents docs/guide.md: %+v", file)
	}
	var commits mcpserver.CommitList
	s.call("repo_commits", nil, &commits)
	if len(commits.Commits) < 2 || strings.TrimSpace(commits.Commits[0].Message) != "docs: a guide" {
		t.Errorf("repo_commits: %+v", commits)
	}
	var collabs mcpserver.CollaboratorList
	s.call("repo_collaborators", nil, &collabs)
	if !strings.Contains(fmt.Sprint(collabs.Collaborators), "{carol write}") {
		t.Errorf("repo_collaborators: %+v", collabs)
	}

	var issues mcpserver.IssueList
	s.call("issues_list", map[string]any{"author": "bob"}, &issues)
	if len(issues.Issues) != 1 || issues.Issues[0].Title != "Typo in README" {
		t.Errorf("issues_list author bob: %+v", issues)
	}
	s.call("issues_list", map[string]any{"search": "CRASH"}, &issues)
	if len(issues.Issues) != 1 || issues.Issues[0].Number != 1 {
		t.Errorf("issues_list search CRASH: %+v", issues)
	}
	var is mcpserver.Issue
	s.call("issue_view", map[string]any{"number": 1}, &is)
	if is.Body != "It crashes." || len(is.Thread) != 1 || is.Thread[0].Body != "Confirmed." || is.Thread[0].Author != "alice" {
		t.Errorf("issue_view: %+v", is)
	}

	var pulls mcpserver.PullList
	s.call("prs_list", nil, &pulls)
	if len(pulls.Pulls) != 1 || pulls.Pulls[0].Head != "fix" {
		t.Errorf("prs_list: %+v", pulls)
	}
	var pull mcpserver.Pull
	s.call("pr_view", map[string]any{"number": pulls.Pulls[0].Number}, &pull)
	if pull.Body != "Fixes #1" {
		t.Errorf("pr_view: %+v", pull)
	}
	var rels mcpserver.ReleaseList
	s.call("releases_list", nil, &rels)
	var rel mcpserver.Release
	s.call("release_view", map[string]any{"tag": "v1.0.0"}, &rel)
	if len(rels.Releases) != 1 || rel.Body != "The first release." {
		t.Errorf("releases: %+v, %+v", rels, rel)
	}
	if msg := s.fail("release_view", map[string]any{"tag": "v9"}); msg != `no release of tag "v9" in alice/demo; see releases_list` {
		t.Errorf("release_view v9: %q", msg)
	}

	var runs mcpserver.RunList
	s.call("runs_list", nil, &runs)
	if len(runs.Runs) != 1 || runs.Runs[0].ID != run.ID || runs.Runs[0].Conclusion != "failure" {
		t.Errorf("runs_list: %+v", runs)
	}
	var rv mcpserver.Run
	s.call("run_view", map[string]any{"run_id": run.ID}, &rv)
	if len(rv.Jobs) != 1 || rv.Jobs[0].Name != "test" {
		t.Fatalf("run_view: %+v", rv)
	}
	var jobs mcpserver.JobList
	s.call("run_jobs", map[string]any{"run_id": run.ID}, &jobs)
	if len(jobs.Jobs) != 1 || len(jobs.Jobs[0].Steps) == 0 {
		t.Errorf("run_jobs: %+v", jobs)
	}
	var log mcpserver.JobLog
	s.call("job_log", map[string]any{"job_id": rv.Jobs[0].ID}, &log)
	if !strings.Contains(log.Text, "FAIL: TestCrash") || strings.Contains(log.Text, "fgt_abcdefghijklmnop") || strings.Contains(log.Text, "registry-Secret-42") || log.Note != "" {
		t.Errorf("job_log: %+v", log)
	}
	var ex mcpserver.Explanation
	s.call("run_explain", map[string]any{"run_id": run.ID}, &ex)
	if !strings.Contains(ex.Text, "FAIL: TestCrash") || !strings.Contains(ex.Text, "job test (ID") || strings.Contains(ex.Text, "fgt_abcdefghijklmnop") ||
		strings.Contains(ex.Text, "registry-Secret-42") {
		t.Errorf("run_explain: %+v", ex)
	}

	var me mcpserver.Account
	raw := s.call("whoami", nil, &me)
	if me.Login != "alice" || me.TwoFAEnabled || strings.Contains(raw, h.Env["FORGE_TOKEN"]) {
		t.Errorf("whoami: %s", raw)
	}
}

// Started by hand on a terminal, serve says what it is for; the end of
// its input ends it.
func TestServeOnATerminalSaysWhatItIsFor(t *testing.T) {
	h := world(t)
	ios, _, _, errOut := iostreams.Test()
	ios.SetStdinTTY(true)
	env := maps(h.Env)
	code := cmd.Run(context.Background(), cmdutil.New(ios, func(k string) string { return env[k] }), []string{"mcp", "serve"})
	if code != 0 || !strings.Contains(errOut.String(), "for an assistant to launch: `forge mcp config` prints the snippet") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
