package issue

import (
	"context"
	"strings"
	"testing"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd/internal/seamtest"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
)

// The runF seam: close reads its argument (a number or the issue's web
// address) and flags into its options, and does nothing else.
func TestCloseFlagsIntoOptions(t *testing.T) {
	got, err := seamtest.Capture(t, newCloseCmd, "https://forge.example.com/alice/demo/issues/12", "-c", "Done")
	if err != nil {
		t.Fatal(err)
	}
	if got == nil || got.number != 12 || got.repoFlag != "forge.example.com/alice/demo" || got.comment != "Done" || got.want != "closed" {
		t.Fatalf("options %+v", got)
	}
}

// runState from its own dependencies: a client of the reference server.
// The comment goes first; a refused one leaves the issue open.
func TestRunStateCommentsFirst(t *testing.T) {
	srv := refservertest.Start(t)
	token := refservertest.User(t, srv, "alice", "")
	if _, err := srv.CreateRepo("alice", "demo", refserver.RepoOptions{AutoInit: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.CreateIssue("alice/demo", "alice", "Crash", ""); err != nil {
		t.Fatal(err)
	}
	c, err := client.New(srv.BaseURL(), token)
	if err != nil {
		t.Fatal(err)
	}
	name := client.RepoName{Owner: "alice", Name: "demo"}
	ios, _, _, errOut := iostreams.Test()
	opts := &stateOptions{
		Deps: cmdutil.Deps{IO: ios, RepoClient: func(context.Context, string) (*client.Client, client.RepoName, error) {
			return c, name, nil
		}},
		number: 1, want: "closed", comment: "   ",
	}
	if err := runState(context.Background(), opts); err == nil || !strings.Contains(err.Error(), "the issue is left open") {
		t.Fatalf("a blank comment: %v", err)
	}
	if is, _ := c.Issues.Get(context.Background(), name, 1); is.State != "open" {
		t.Fatalf("closed without its comment: %s", is.State)
	}
	opts.comment = "Fixed."
	if err := runState(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if i, j := strings.Index(errOut.String(), "Commented on issue #1"), strings.Index(errOut.String(), "Closed issue #1"); i < 0 || j < i {
		t.Errorf("stderr:\n%s", errOut)
	}
}
