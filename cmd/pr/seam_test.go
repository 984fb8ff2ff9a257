package pr

import (
	"context"
	"testing"

	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/forgehq/forge/internal/iostreams"
)

// The runF seam: pr list reads its state (any case) and limit into its
// options, and an unknown state stops at parsing, before runF.
func TestListFlagsIntoOptions(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	f := cmdutil.New(ios, func(string) string { return "" })
	var got *listOptions
	cmd := newListCmd(f, func(_ context.Context, o *listOptions) error {
		got = o
		return nil
	})
	cmd.SetArgs([]string{"-R", "alice/demo", "--state", "Merged", "-L", "3"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if got == nil || got.repoFlag != "alice/demo" || got.state != "merged" || got.list.Limit != 3 {
		t.Fatalf("options %+v", got)
	}
	got = nil
	cmd = newListCmd(f, func(_ context.Context, o *listOptions) error {
		got = o
		return nil
	})
	cmd.SetArgs([]string{"--state", "draft"})
	cmd.SetOut(ios.ErrOut)
	cmd.SetErr(ios.ErrOut)
	if err := cmd.Execute(); err == nil || got != nil {
		t.Fatalf("--state draft: options %+v, error %v", got, err)
	}
}

// checkout takes the pull request's web address: its number and, as -R,
// its repository.
func TestCheckoutURLIntoOptions(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	var got *gitOptions
	cmd := newCheckoutCmd(cmdutil.New(ios, func(string) string { return "" }), func(_ context.Context, o *gitOptions) error {
		got = o
		return nil
	})
	cmd.SetArgs([]string{"http://forge.example.com/alice/demo/pull/3"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if got == nil || got.number != 3 || got.repoFlag != "forge.example.com/alice/demo" {
		t.Fatalf("options %+v", got)
	}
}
