package admin

import (
	"context"
	"strings"
	"testing"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd/internal/seamtest"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/prompt/prompttest"
	"github.com/forgehq/forge/refserver/refservertest"
	"github.com/spf13/cobra"
)

// runUserDelete from its own dependencies, no Factory: the question goes
// to the Prompter in the options, and a name typed wrong deletes nothing;
// typed right, the account is gone.
func TestRunUserDeleteFromDeps(t *testing.T) {
	srv := refservertest.Start(t)
	refservertest.User(t, srv, "bob", "")
	c, err := client.New(srv.BaseURL(), refservertest.User(t, srv, srv.AdminUser(), ""))
	if err != nil {
		t.Fatal(err)
	}
	exists := func() bool {
		users, err := client.Collect(c.Admin.ListUsers(context.Background(), client.ListOptions{}), 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range users {
			if u.Login == "bob" {
				return true
			}
		}
		return false
	}
	for _, answer := range []string{"bo", "bob"} {
		ios, _, _, errOut := iostreams.Test()
		ios.SetStdinTTY(true)
		ios.SetStdoutTTY(true)
		p := &prompttest.Script{Answers: []any{answer}}
		opts := &userActionOptions{
			Deps:  cmdutil.Deps{IO: ios, Prompter: p, REST: func() (*client.Client, error) { return c, nil }},
			login: "bob",
		}
		err := runUserDelete(context.Background(), opts)
		if want := answer != "bob"; exists() != want {
			t.Fatalf("typed %q: bob exists %v, want %v (error %v, stderr %q)", answer, !want, want, err, errOut)
		}
		if len(p.Questions()) != 1 || !strings.Contains(p.Questions()[0], "bob") {
			t.Errorf("typed %q: questions %q", answer, p.Questions())
		}
	}
}

// disable and enable differ only in the state they ask for.
func TestUserStateIntoOptions(t *testing.T) {
	for _, c := range []struct {
		newCmd func(*cmdutil.Factory, func(context.Context, *userActionOptions) error) *cobra.Command
		enable bool
	}{{newUserDisableCmd, false}, {newUserEnableCmd, true}} {
		o, err := seamtest.Capture(t, c.newCmd, "bob")
		if err != nil || o == nil || o.login != "bob" || o.enable != c.enable {
			t.Fatalf("options %+v, error %v", o, err)
		}
	}
}
