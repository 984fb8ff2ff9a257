package repo

import (
	"context"
	"testing"

	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/spf13/cobra"
)

// capture runs the command newCmd builds with args and returns the
// options its runF received (nil when parsing failed first).
func capture[T any](t *testing.T, newCmd func(*cmdutil.Factory, func(context.Context, *T) error) *cobra.Command, args ...string) (*T, error) {
	t.Helper()
	ios, _, _, _ := iostreams.Test()
	var got *T
	cmd := newCmd(cmdutil.New(ios, func(string) string { return "" }), func(_ context.Context, o *T) error {
		got = o
		return nil
	})
	cmd.SetArgs(args)
	cmd.SetOut(ios.ErrOut)
	cmd.SetErr(ios.ErrOut)
	return got, cmd.Execute()
}

// repo create reads its name and flags into the options and nothing
// else happens: no request, no clone.
func TestCreateFlagsIntoOptions(t *testing.T) {
	o, err := capture(t, newCreateCmd, "demo", "--private", "--init", "-c", "-d", "A demo app")
	if err != nil || o == nil {
		t.Fatalf("options %v, error %v", o, err)
	}
	if o.name != "demo" || !o.private || !o.init || !o.clone || o.description != "A demo app" {
		t.Fatalf("options %+v", o)
	}
}

// repo list's --visibility is checked while parsing, in any case.
func TestListVisibilityIntoOptions(t *testing.T) {
	o, err := capture(t, newListCmd, "--visibility", "Private", "-L", "7")
	if err != nil || o == nil || o.visibility != "private" || o.list.Limit != 7 {
		t.Fatalf("options %+v, error %v", o, err)
	}
	if o, err := capture(t, newListCmd, "--visibility", "secret"); err == nil || o != nil {
		t.Fatalf("--visibility secret: options %+v, error %v", o, err)
	}
}
