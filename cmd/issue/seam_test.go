package issue

import (
	"testing"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd/internal/seamtest"
)

// The list filters reach the options as given (the state in lower case,
// as the service takes it), and the ones forge applies itself keep what
// they should: --author without its @ and in any case, --search in title
// or body.
func TestListFlagsIntoOptions(t *testing.T) {
	o, err := seamtest.Capture(t, newListCmd, "-R", "alice/demo", "-s", "CLOSED", "-A", "@Bob", "-S", "crash", "-L", "5")
	if err != nil || o == nil {
		t.Fatalf("options %v, error %v", o, err)
	}
	if o.repoFlag != "alice/demo" || o.state != "closed" || o.author != "@Bob" || o.search != "crash" || o.list.Limit != 5 {
		t.Fatalf("options %+v", o)
	}
	for _, c := range []struct {
		is   client.Issue
		keep bool
	}{
		{client.Issue{User: client.User{Login: "bob"}, Title: "Crash on start"}, true},
		{client.Issue{User: client.User{Login: "bob"}, Body: "a CRASH"}, true},
		{client.Issue{User: client.User{Login: "bob"}, Title: "Slow"}, false},
		{client.Issue{User: client.User{Login: "bobby"}, Title: "crash"}, false},
	} {
		if got := o.keep(&c.is); got != c.keep {
			t.Errorf("keep(%s: %q %q) = %v", c.is.User.Login, c.is.Title, c.is.Body, got)
		}
	}
}

// A state the service does not know is a usage error while parsing: the
// run function is never reached.
func TestListRefusesUnknownState(t *testing.T) {
	o, err := seamtest.Capture(t, newListCmd, "-s", "merged")
	if err == nil || o != nil {
		t.Fatalf("options %+v, error %v", o, err)
	}
}

// view takes the issue's web address: its number, and its repository as
// -R would give it.
func TestViewURLIntoOptions(t *testing.T) {
	o, err := seamtest.Capture(t, newViewCmd, "https://forge.example.com/alice/demo/issues/7", "--comments")
	if err != nil || o == nil {
		t.Fatalf("options %v, error %v", o, err)
	}
	if o.number != 7 || o.repoFlag != "forge.example.com/alice/demo" || !o.comments {
		t.Fatalf("options %+v", o)
	}
}

// create reads --title and --body into its options, nothing more: the
// body is read (and the editor opened) only when the command runs.
func TestCreateFlagsIntoOptions(t *testing.T) {
	o, err := seamtest.Capture(t, newCreateCmd, "-t", "Crash", "-b", "On start")
	if err != nil || o == nil {
		t.Fatalf("options %v, error %v", o, err)
	}
	if o.title != "Crash" || o.body.body != "On start" || !o.body.bodySet {
		t.Fatalf("options %+v", o)
	}
}
