package run

import (
	"testing"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd/internal/seamtest"
)

// run list's filters reach the options: the service's (--branch,
// --status, --event) as given, forge's own (--workflow, --commit,
// --user) in keep, in any case and with the user's @ dropped.
func TestListFlagsIntoOptions(t *testing.T) {
	o, err := seamtest.Capture(t, newListCmd, "-R", "alice/demo", "-b", "main", "-s", "Failure", "-e", "push",
		"-w", "CI", "-c", "ABC1", "-u", "@Alice", "-L", "4")
	if err != nil || o == nil {
		t.Fatalf("options %v, error %v", o, err)
	}
	if o.repo != "alice/demo" || o.branch != "main" || o.status != "failure" || o.event != "push" || o.list.Limit != 4 {
		t.Fatalf("options %+v", o)
	}
	run := func(name, sha, actor string) *client.WorkflowRun {
		return &client.WorkflowRun{Name: name, HeadSHA: sha, Actor: client.User{Login: actor}}
	}
	for _, c := range []struct {
		r    *client.WorkflowRun
		keep bool
	}{
		{run("ci", "abc123", "alice"), true},
		{run("Deploy", "abc123", "alice"), false},
		{run("ci", "0abc12", "alice"), false},
		{run("ci", "abc123", "bob"), false},
	} {
		if got := o.keep(c.r); got != c.keep {
			t.Errorf("keep(%s %s %s) = %v", c.r.Name, c.r.HeadSHA, c.r.Actor.Login, got)
		}
	}
	if o, err := seamtest.Capture(t, newListCmd, "-s", "broken"); err == nil || o != nil {
		t.Fatalf("--status broken: options %+v, error %v", o, err)
	}
}

// run view reads the ID and the agent's flags; a --context-limit below 1
// is a usage error before the run function.
func TestViewFlagsIntoOptions(t *testing.T) {
	o, err := seamtest.Capture(t, newViewCmd, "12", "--explain", "--model", "ref-1-mini", "--no-redact", "--exit-status")
	if err != nil || o == nil {
		t.Fatalf("options %v, error %v", o, err)
	}
	if o.id != 12 || !o.explain || !o.exitStatus || o.agent.model != "ref-1-mini" || !o.agent.noRedact {
		t.Fatalf("options %+v", o)
	}
	if o, err := seamtest.Capture(t, newViewCmd, "12", "--explain", "--context-limit", "0"); err == nil || o != nil {
		t.Fatalf("--context-limit 0: options %+v, error %v", o, err)
	}
}
