package account

import (
	"context"
	"strings"
	"testing"

	"github.com/forgehq/forge/app/authflow"
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd/internal/seamtest"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/refserver/refservertest"
)

// runPassword from its own dependencies, no Factory or config file: the
// passwords from stdin go to the reference server, and what it answers
// (the new token it issues) is handed to changed, the one dependency
// that writes the profile.
func TestRunPasswordFromDeps(t *testing.T) {
	srv := refservertest.Start(t)
	token := refservertest.User(t, srv, "bob", "")
	c, err := client.New(srv.BaseURL(), token)
	if err != nil {
		t.Fatal(err)
	}
	ios, in, _, errOut := iostreams.Test()
	in.WriteString(refservertest.Password("bob") + "\nbob-new-password-5678\n")
	var gotPW, gotToken string
	opts := &passwordOptions{
		Deps: cmdutil.Deps{
			IO:       ios,
			REST:     func() (*client.Client, error) { return c, nil },
			Settings: func() (*config.Settings, error) { return &config.Settings{Profile: "default"}, nil },
		},
		changed: func(_ *config.Settings, pw, tok string) (authflow.Changed, error) {
			gotPW, gotToken = pw, tok
			return authflow.Changed{Token: tok != ""}, nil
		},
		stdin: true,
	}
	if err := runPassword(context.Background(), opts); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if gotPW != "bob-new-password-5678" || gotToken == "" || gotToken == token {
		t.Fatalf("changed got password %q, token %q (old %q)", gotPW, gotToken, token)
	}
	if !strings.Contains(errOut.String(), "Password changed") {
		t.Errorf("stderr:\n%s", errOut)
	}
	// The token handed on is one the service accepts.
	nc, err := client.New(srv.BaseURL(), gotToken)
	if err != nil {
		t.Fatal(err)
	}
	if me, err := nc.Account.Me(context.Background()); err != nil || me.Login != "bob" {
		t.Fatalf("the new token: %v, %v", me, err)
	}
}

// --stdin reaches the options; nothing is read until the command runs.
func TestPasswordFlagsIntoOptions(t *testing.T) {
	o, err := seamtest.Capture(t, newPasswordCmd, "--stdin")
	if err != nil || o == nil || !o.stdin || o.changed == nil {
		t.Fatalf("options %+v, error %v", o, err)
	}
}
