package chatview

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/forgehq/forge/chat"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/ci"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/tuitest"
)

// TestAskAttachesAndTheAgentSeesIt: another view's ask key attaches a
// failed run; its suggested question waits in the input; sent, the
// reference agent's reply names the job that failed — the context
// arrived.
func TestAskAttachesAndTheAgentSeesIt(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	ctx := tuitest.Context(t, srv, "alice")
	c, _ := ctx.REST()
	runs, err := client.Collect(c.Actions.ListRuns(context.Background(), tuitest.Webapp, client.RunListOptions{Status: "failure"}), 0)
	if err != nil || len(runs) == 0 {
		t.Fatalf("no failed run: %v", err)
	}
	ref := "run:" + strconv.FormatInt(runs[0].ID, 10)
	v := New(ctx)
	// Wide enough that no sentence of the reply wraps.
	d := tuitest.Drive(t, v, 240, 40)
	d.UntilView("model ref-1 (default)")
	d.Send(common.AskAgentMsg{Repo: tuitest.Webapp, Ref: ref, Prompt: "Why did this run fail?"})
	d.UntilView("Attached " + ref + " (CI run")
	if got := v.input.Value(); got != "Why did this run fail?" || !v.input.Focused() {
		t.Errorf("the input holds %q (focused %v)", got, v.input.Focused())
	}
	d.Key("enter")
	view := d.UntilView("The run failed in job test")
	if !strings.Contains(view, "You attached "+ref) {
		t.Errorf("the agent did not see the attachment:\n%s", view)
	}
}

// TestWithCommand: /with in the TUI's chat attaches from the current
// repository; without one it says how to choose one.
func TestWithCommand(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	ctx := tuitest.Context(t, srv, "alice")
	v := New(ctx)
	d := tuitest.Drive(t, v, 100, 30)
	d.UntilView("model ref-1 (default)")
	d.Type("/with issue:1")
	d.Key("enter")
	d.UntilView("no repository chosen yet")
	d.Until("the command's end", func() bool { return v.busy == "" })
	ctx.Repo = tuitest.Webapp
	d.Type("/with issue:1")
	d.Key("enter")
	d.UntilView("Attached issue:1 (Issue #1 in alice/webapp")
	d.Until("the command's end", func() bool { return v.busy == "" })
	d.Type("/context")
	d.Key("enter")
	d.UntilView("goes with your next message")
}

// TestAskCutToTheBudget: an attachment larger than the key's remaining
// quota allows is cut from the top of its log, as in forge chat, and the
// transcript says what was cut; the end of the log (the failure) arrives.
func TestAskCutToTheBudget(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	lines := make([]string, 400)
	for i := range lines {
		lines[i] = fmt.Sprintf("filler line %d of 400", i+1)
	}
	run, err := srv.CreateRun("alice/webapp", refserver.RunSeed{Status: "completed", Conclusion: "failure",
		Jobs: []ci.JobPlan{{Name: "test", Steps: []ci.StepPlan{{Name: "Test", Lines: lines}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Agent().SetQuota(srv.AgentKey(), 100_000); err != nil {
		t.Fatal(err)
	}
	if err := srv.Agent().SetUsed(srv.AgentKey(), 98_000); err != nil {
		t.Fatal(err)
	}
	_, d, ref := askAboutRun(t, srv, run.ID)
	d.Type("why")
	d.Key("enter")
	view := d.UntilView("forge: "+ref+": cut ", "lines from the top of job test (failure): log to fit the token budget", "The run failed in job test")
	if strings.Contains(view, "✗") {
		t.Errorf("the turn failed:\n%s", view)
	}
}

// TestProfileContextLimit: the profile's chat_context_limit caps attached
// context in the TUI as it does in forge chat.
func TestProfileContextLimit(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	env := limitProfile(t, srv, "700")
	ctx := common.NewContext(t.Context(), tuitest.Factory(env), true)
	v := New(ctx)
	if v.session == nil || v.session.ContextLimit != 700 {
		t.Fatalf("the session's context limit: %+v", v.session)
	}
}

// TestAskRedacts: what the ask key attaches is redacted before it leaves:
// a token and an Authorization header in a failed job's log are masked in
// the queued attachment.
func TestAskRedacts(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	secret := "fgt_0123456789abcdefSECRET"
	run, err := srv.CreateRun("alice/webapp", refserver.RunSeed{Status: "completed", Conclusion: "failure",
		Jobs: []ci.JobPlan{{Name: "deploy", Steps: []ci.StepPlan{{Name: "Push", Lines: []string{
			"FORGE_TOKEN=" + secret, "curl -H 'Authorization: Bearer hunter2hunter2' https://example.com"}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	v, _, _ := askAboutRun(t, srv, run.ID)
	pending := v.session.Pending()
	if len(pending) != 1 {
		t.Fatalf("%d attachments queued", len(pending))
	}
	var all strings.Builder
	for _, s := range pending[0].Sections {
		all.WriteString(strings.Join(s.Lines, "\n"))
	}
	got := all.String()
	if strings.Contains(got, secret) || strings.Contains(got, "hunter2") || !strings.Contains(got, "fgt_****") {
		t.Errorf("the attachment is not redacted:\n%s", got)
	}
}

// TestProfileContextLimitBad: a limit that is not a number is said in
// the transcript, and the default applies.
func TestProfileContextLimitBad(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	env := limitProfile(t, srv, "lots")
	v := New(common.NewContext(t.Context(), tuitest.Factory(env), true))
	d := tuitest.Drive(t, v, 240, 40)
	d.UntilView("Chatting with", `the profile "work" sets chat_context_limit to lots`, "using 16,000 tokens")
	if v.session.ContextLimit != chat.DefaultContextLimit {
		t.Errorf("the limit is %d", v.session.ContextLimit)
	}
}

// limitProfile is alice's environment with a configuration whose current
// profile, "work", sets chat_context_limit to limit.
func limitProfile(t *testing.T, srv *refserver.Server, limit string) map[string]string {
	t.Helper()
	env := tuitest.Env(t, srv, "alice")
	cfg := "current_profile: work\nprofiles:\n  work:\n    base_url: " + srv.BaseURL() + "\n    chat_context_limit: " + limit + "\n"
	if err := os.WriteFile(filepath.Join(env["FORGE_CONFIG_DIR"], "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return env
}

// askAboutRun opens alice's chat at 240×40 and attaches run runID of
// alice/webapp as another view's ask key does; it returns the view, its
// driver and the attachment's reference once the view shows it attached.
func askAboutRun(t *testing.T, srv *refserver.Server, runID int64) (*View, *tuitest.Driver, string) {
	t.Helper()
	v := New(tuitest.Context(t, srv, "alice"))
	d := tuitest.Drive(t, v, 240, 40)
	d.UntilView("model ref-1 (default)")
	ref := "run:" + strconv.FormatInt(runID, 10)
	d.Send(common.AskAgentMsg{Repo: tuitest.Webapp, Ref: ref})
	d.UntilView("Attached " + ref)
	return v, d, ref
}
