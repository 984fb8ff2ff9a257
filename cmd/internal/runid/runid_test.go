package runid_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/cmd/internal/runid"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/testkit/clitest"
)

func TestParse(t *testing.T) {
	var repo string
	if id, err := runid.Parse("12", &repo); err != nil || id != 12 || repo != "" {
		t.Fatalf("Parse(12) = %d, %v, repo %q", id, err, repo)
	}
	// A run's web address, as its html_url gives it, names the repository.
	if id, err := runid.Parse("http://127.0.0.1:8080/alice/demo/actions/runs/57", &repo); err != nil || id != 57 || repo != "127.0.0.1:8080/alice/demo" {
		t.Fatalf("Parse(URL) = %d, %v, repo %q", id, err, repo)
	}
	for _, arg := range []string{"abc", "0", "-3", "12abc", "#12", "", "1\x1b[2J", "http://h/alice/demo/issues/3", "https://h/actions/runs/3"} {
		repo := ""
		_, err := runid.Parse(arg, &repo)
		if err == nil {
			t.Errorf("Parse(%q) accepted", arg)
			continue
		}
		if code := cmdcore.ExitCode(err); code != 2 {
			t.Errorf("Parse(%q): exit %d, want 2", arg, code)
		}
		msg := err.Error()
		if strings.ContainsAny(msg, "\n\x1b") || !strings.HasSuffix(msg, "; `forge run list` shows the IDs") {
			t.Errorf("Parse(%q) = %q: want one clean line naming forge run list", arg, msg)
		}
	}
}

// Every command that takes a run ID reads it the same way, before it
// sends anything, and completes it from the repository's runs.
func TestRunCommandsShareIt(t *testing.T) {
	h := clitest.New(t)
	h.LoginAs("alice")
	h.Repo("alice", "demo")
	run, err := h.Srv.CreateRun("alice/demo", refserver.RunSeed{Status: "completed"})
	if err != nil {
		t.Fatal(err)
	}
	want := "forge: run ID must be a positive integer, not \"abc\"; `forge run list` shows the IDs\n"
	for _, verb := range []string{"logs", "view", "watch", "explain"} {
		r := h.Run(clitest.Run{}, "run", verb, "abc", "-R", "alice/demo")
		if r.Code != 2 || r.Err != want || r.Out != "" {
			t.Errorf("run %s abc: exit %d\n%s", verb, r.Code, r.Output())
		}
		r = h.Run(clitest.Run{}, "__complete", "run", verb, "-R", "alice/demo", "")
		if !strings.HasPrefix(r.Out, strconv.FormatInt(run.ID, 10)+"\t") {
			t.Errorf("completing run %s: %s", verb, r.Output())
		}
	}
}
