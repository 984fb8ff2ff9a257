package browse_test

import (
	"context"
	"strings"
	"testing"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/cmd/browse"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/prompt/prompttest"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/testkit/clitest"
)

// The runF seam: the command only reads its flags and arguments into
// Options.
func TestFlagsIntoOptions(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	var got *browse.Options
	cmd := browse.NewCmd(cmdutil.New(ios, func(string) string { return "" }), func(_ context.Context, o *browse.Options) error {
		got = o
		return nil
	})
	cmd.SetArgs([]string{"README.md", "-R", "alice/demo", "-n"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if got == nil || got.Target != "README.md" || got.RepoFlag != "alice/demo" || !got.NoBrowser {
		t.Fatalf("options %+v", got)
	}
}

// Run built directly from the dependencies it uses: a client of the
// reference server and an Open that records the address.
func TestRunWithItsOwnDependencies(t *testing.T) {
	h := clitest.New(t)
	h.LoginAs("alice")
	if _, err := h.Srv.CreateRepo("alice", "demo", refserver.RepoOptions{AutoInit: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Srv.CreateIssue("alice/demo", "alice", "First", ""); err != nil {
		t.Fatal(err)
	}
	// A file past the service's inline limit (refused inline with a 403
	// on main, which browse showed) has a page too.
	if _, err := h.Srv.CommitFiles("alice/demo", "", map[string]string{"docs/big.bin": strings.Repeat("\x00", 2<<20)}, "big"); err != nil {
		t.Fatal(err)
	}
	c, err := client.New(h.Srv.BaseURL(), h.Env["FORGE_TOKEN"])
	if err != nil {
		t.Fatal(err)
	}
	ios, _, out, _ := iostreams.Test()
	var opened []string
	opts := &browse.Options{
		Deps: cmdutil.Deps{IO: ios, RepoClient: func(context.Context, string) (*client.Client, client.RepoName, error) {
			return c, client.RepoName{Owner: "alice", Name: "demo"}, nil
		}},
		Open: func(u string) error { opened = append(opened, u); return nil },
	}
	for _, target := range []string{"", "1", "README.md", "docs/big.bin"} {
		opts.Target = target
		if err := browse.Run(context.Background(), opts); err != nil {
			t.Fatalf("browse %q: %v", target, err)
		}
	}
	want := []string{"/alice/demo", "/alice/demo/issues/1", "/alice/demo/blob/main/README.md", "/alice/demo/blob/main/docs/big.bin"}
	for i, w := range want {
		if i >= len(opened) || !strings.HasSuffix(opened[i], w) {
			t.Errorf("opened %q, want ...%s", opened, w)
		}
	}
	opts.Target, opts.NoBrowser = "1", true
	if err := browse.Run(context.Background(), opts); err != nil || !strings.HasSuffix(strings.TrimSpace(out.String()), "/alice/demo/issues/1") || len(opened) != 4 {
		t.Errorf("--no-browser: %v, stdout %q, opened %q", err, out, opened)
	}
}

// Issue #1 and pull request #1 both exist (the service numbers them
// apart): on a terminal forge asks which one, and opens that one.
func TestRunAsksWhenIssueAndPullShareANumber(t *testing.T) {
	h := clitest.New(t)
	h.LoginAs("alice")
	if _, err := h.Srv.CreateRepo("alice", "demo", refserver.RepoOptions{AutoInit: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Srv.CreateIssue("alice/demo", "alice", "Crash on start", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Srv.CreatePull("alice/demo", refserver.PullSeed{Title: "Fix the crash"}); err != nil {
		t.Fatal(err)
	}
	c, err := client.New(h.Srv.BaseURL(), h.Env["FORGE_TOKEN"])
	if err != nil {
		t.Fatal(err)
	}
	for answer, want := range map[string]string{"2": "/alice/demo/pull/1", "1": "/alice/demo/issues/1"} {
		ios, _, _, errOut := iostreams.Test()
		ios.SetStdinTTY(true)
		ios.SetStdoutTTY(true)
		script := &prompttest.Script{Answers: []any{answer}, T: t}
		var opened string
		opts := &browse.Options{
			Deps: cmdutil.Deps{IO: ios, Prompter: script, RepoClient: func(context.Context, string) (*client.Client, client.RepoName, error) {
				return c, client.RepoName{Owner: "alice", Name: "demo"}, nil
			}},
			Open:   func(u string) error { opened = u; return nil },
			Target: "1",
		}
		if err := browse.Run(context.Background(), opts); err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(opened, want) || len(script.Questions()) != 1 ||
			!strings.Contains(errOut.String(), "#1 is both an issue and a pull request in alice/demo:") ||
			!strings.Contains(errOut.String(), "1  issue: Crash on start") || !strings.Contains(errOut.String(), "2  pull request: Fix the crash") {
			t.Errorf("answer %s: opened %q, asked %q\n%s", answer, opened, script.Questions(), errOut)
		}
	}
}
