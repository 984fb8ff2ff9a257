package issue_test

import (
	"context"
	"strings"
	"testing"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/client"
	issuecmd "github.com/forgehq/forge/cmd/issue"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/testkit/clitest"
)

// The runF seam: close reads its argument (a number or the issue's web
// address) and flags into StateOptions, and does nothing else.
func TestCloseFlagsIntoOptions(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	var got *issuecmd.StateOptions
	cmd := issuecmd.NewCloseCmd(cmdutil.New(ios, func(string) string { return "" }), func(_ context.Context, o *issuecmd.StateOptions) error {
		got = o
		return nil
	})
	cmd.SetArgs([]string{"https://forge.example.com/alice/demo/issues/12", "-c", "Done"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if got == nil || got.Number != 12 || got.RepoFlag != "forge.example.com/alice/demo" || got.Comment != "Done" || got.Want != "closed" {
		t.Fatalf("options %+v", got)
	}
}

// RunState from its own dependencies: a client of the reference server.
// The comment goes first; a refused one leaves the issue open.
func TestRunStateCommentsFirst(t *testing.T) {
	h := clitest.New(t)
	h.LoginAs("alice")
	if _, err := h.Srv.CreateRepo("alice", "demo", refserver.RepoOptions{AutoInit: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Srv.CreateIssue("alice/demo", "alice", "Crash", ""); err != nil {
		t.Fatal(err)
	}
	c, err := client.New(h.Srv.BaseURL(), h.Env["FORGE_TOKEN"])
	if err != nil {
		t.Fatal(err)
	}
	name := client.RepoName{Owner: "alice", Name: "demo"}
	ios, _, _, errOut := iostreams.Test()
	opts := &issuecmd.StateOptions{
		IO:     ios,
		Client: func(context.Context, string) (*client.Client, client.RepoName, error) { return c, name, nil },
		Number: 1, Want: "closed", Comment: "   ",
	}
	if err := issuecmd.RunState(context.Background(), opts); err == nil || !strings.Contains(err.Error(), "the issue is left open") {
		t.Fatalf("a blank comment: %v", err)
	}
	if is, _ := c.Issues.Get(context.Background(), name, 1); is.State != "open" {
		t.Fatalf("closed without its comment: %s", is.State)
	}
	opts.Comment = "Fixed."
	if err := issuecmd.RunState(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if i, j := strings.Index(errOut.String(), "Commented on issue #1"), strings.Index(errOut.String(), "Closed issue #1"); i < 0 || j < i {
		t.Errorf("stderr:\n%s", errOut)
	}
}
