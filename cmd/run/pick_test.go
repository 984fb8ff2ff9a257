package run_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/testkit/clitest"
)

// Without an ID on a terminal, run view offers the recent runs, newest
// first, and shows the one chosen by its number in the list.
func TestViewPicksARunOnATerminal(t *testing.T) {
	h := clitest.New(t)
	h.LoginAs("alice")
	if _, err := h.Srv.CreateRepo("alice", "demo", refserver.RepoOptions{AutoInit: true}); err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, name := range []string{"Build", "Lint"} {
		r, err := h.Srv.CreateRun("alice/demo", refserver.RunSeed{Name: name, Status: "completed"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.ID)
	}
	res := h.Run(clitest.Run{TTY: true, Answers: []any{"9", "2"}}, "run", "view", "-R", "alice/demo", "--json", "id,name", "--jq", `"\(.id) \(.name)"`)
	if res.Code != 0 {
		t.Fatalf("exit %d\n%s", res.Code, res.Err)
	}
	// Newest first: Lint is 1, Build is 2; 9 is asked again.
	if want := strconv.FormatInt(ids[0], 10) + " Build"; strings.TrimSpace(res.Out) != want {
		t.Errorf("stdout %q, want %q", res.Out, want)
	}
	if len(res.Questions) != 2 || !strings.Contains(res.Questions[0], "Which one? [1-2]") {
		t.Errorf("questions %q", res.Questions)
	}
	if !strings.Contains(res.Err, "  1  "+strconv.FormatInt(ids[1], 10)+"  ✓ success ") || !strings.Contains(res.Err, "Type a number from 1 to 2") {
		t.Errorf("stderr:\n%s", res.Err)
	}
}
