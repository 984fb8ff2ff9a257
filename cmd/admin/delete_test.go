package admin_test

import (
	"context"
	"strings"
	"testing"

	"github.com/forgehq/forge/testkit/clitest"
)

// TestUserDeleteAsksToTypeTheName: on a terminal, only the user name typed
// back deletes the account; anything else, or Ctrl-C, deletes nothing.
func TestUserDeleteAsksToTypeTheName(t *testing.T) {
	t.Parallel()
	h := clitest.New(t)
	if _, err := h.Srv.CreateUser("bob", "bob-password-1234", "user"); err != nil {
		t.Fatal(err)
	}
	token, err := h.Srv.Token(h.Srv.AdminUser())
	if err != nil {
		t.Fatal(err)
	}
	h.Env["FORGE_TOKEN"] = token
	// forge runs forge on a pretend terminal, typing answer at its one
	// question ("^C" is Ctrl-C).
	forge := func(answer string, args ...string) clitest.Result {
		var answers []any
		switch answer {
		case "":
		case "^C":
			answers = []any{context.Canceled}
		default:
			answers = []any{answer}
		}
		return h.Run(clitest.Run{TTY: true, Answers: answers}, args...)
	}
	bobExists := func() bool {
		return strings.Contains(forge("", "admin", "user", "list", "--jq", ".[].login").Out, "bob\n")
	}

	for _, answer := range []string{"bo", "yes", "^C"} {
		r := forge(answer, "admin", "user", "delete", "bob")
		code, questions, errOut := r.Code, r.Questions, r.Err
		want := 1
		if answer == "^C" {
			want = 130
		}
		if code != want || len(questions) != 1 || questions[0] != "Type bob to confirm" {
			t.Fatalf("answer %q: exit %d (want %d), questions %q, stderr:\n%s", answer, code, want, questions, errOut)
		}
		if !strings.Contains(errOut, "with its SSH keys, tokens and repositories, for good") {
			t.Errorf("no warning before the question:\n%s", errOut)
		}
		if !bobExists() {
			t.Fatalf("answer %q deleted bob", answer)
		}
	}
	r := forge("bob", "admin", "user", "delete", "bob")
	code, errOut := r.Code, r.Err
	if code != 0 || !strings.Contains(errOut, "✓ Deleted bob") {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	if bobExists() {
		t.Fatal("bob survived a confirmed delete")
	}
}
