package confirm_test

import (
	"strings"
	"testing"

	"github.com/forgehq/forge/testkit/clitest"
)

const pubKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIH/HhCNXdLMskXbS9VcFSS+KnVqFTmyndCKwMk/7jBMb one@example\n"

func setup(t *testing.T) *clitest.Harness {
	t.Helper()
	h := clitest.New(t)
	h.LoginAs("alice")
	h.Repo("alice", "app")
	return h
}

func repoExists(h *clitest.Harness) bool {
	_, ok := h.Srv.Store().RepoByName("alice", "app")
	return ok
}

// A typed name must be the name itself: another case is another name, so
// nothing is deleted (repo delete used to accept alice/APP).
func TestTypedNameMustMatch(t *testing.T) {
	h := setup(t)
	for _, typed := range []string{"alice/APP", "alice/ap", "app", "y"} {
		r := h.Run(clitest.Run{TTY: true, Answers: []any{typed}}, "repo", "delete", "alice/app")
		want := `"` + typed + `" does not match alice/app; nothing deleted.`
		if r.Code != 1 || !strings.Contains(r.Err, want) {
			t.Fatalf("typed %q: exit %d\n%s", typed, r.Code, r.Output())
		}
		if !repoExists(h) {
			t.Fatalf("typed %q: the repository was deleted", typed)
		}
	}
	r := h.Run(clitest.Run{TTY: true, Answers: []any{" alice/app "}}, "repo", "delete", "alice/app")
	if r.Code != 0 || repoExists(h) {
		t.Fatalf("the right name (spaces around it) did not delete: exit %d\n%s", r.Code, r.Output())
	}
}

// admin user delete asks the same question in the same words.
func TestTypedNameAdminUser(t *testing.T) {
	h := setup(t)
	if _, err := h.Srv.CreateUser("bob", "bob-password-1234", ""); err != nil {
		t.Fatal(err)
	}
	h.LoginAs("admin")
	r := h.Run(clitest.Run{TTY: true, Answers: []any{"Bob"}}, "admin", "user", "delete", "bob")
	if r.Code != 1 || !strings.Contains(r.Err, `"Bob" does not match bob; nothing deleted.`) ||
		len(r.Questions) != 1 || r.Questions[0] != "Type bob to confirm" {
		t.Fatalf("exit %d, questions %q\n%s", r.Code, r.Questions, r.Output())
	}
	if _, ok := h.Srv.Store().UserByLogin("bob"); !ok {
		t.Fatal("bob was deleted after a wrong name")
	}
}

// Without a terminal every delete command wants --yes, in the same words,
// and deletes nothing.
func TestNoTerminalNeedsYes(t *testing.T) {
	h := setup(t)
	if r := h.Run(clitest.Run{Stdin: pubKey}, "ssh-key", "add", "-"); r.Code != 0 {
		t.Fatalf("ssh-key add: exit %d\n%s", r.Code, r.Output())
	}
	for _, c := range []struct{ args, what string }{
		{"repo delete alice/app", "alice/app"},
		{"ssh-key delete 1", "key 1"},
		{"admin user delete alice", "user alice"},
		{"image delete app:1", "app:1"},
	} {
		r := h.Run(clitest.Run{}, strings.Fields(c.args)...)
		want := "forge: pass --yes to delete " + c.what + " without a prompt\n"
		if r.Code != 2 || r.Err != want {
			t.Errorf("%s: exit %d\n%s", c.args, r.Code, r.Output())
		}
	}
	if !repoExists(h) {
		t.Fatal("the repository was deleted")
	}
	if r := h.Run(clitest.Run{}, "ssh-key", "list", "--jq", "length"); r.Out != "1\n" {
		t.Fatalf("keys after the refusals: %s", r.Output())
	}
}

// A yes/no question deletes only on yes.
func TestYesNo(t *testing.T) {
	h := setup(t)
	if r := h.Run(clitest.Run{Stdin: pubKey}, "ssh-key", "add", "-"); r.Code != 0 {
		t.Fatalf("ssh-key add: exit %d\n%s", r.Code, r.Output())
	}
	id := strings.TrimSpace(h.Run(clitest.Run{}, "ssh-key", "list", "--jq", ".[0].id").Out)
	for _, answer := range []string{"n", ""} {
		r := h.Run(clitest.Run{TTY: true, Answers: []any{answer}}, "ssh-key", "delete", id)
		if r.Code != 1 || !strings.Contains(r.Err, "Nothing deleted.") {
			t.Fatalf("answer %q: exit %d\n%s", answer, r.Code, r.Output())
		}
	}
	r := h.Run(clitest.Run{TTY: true, Answers: []any{"y"}}, "ssh-key", "delete", id)
	if r.Code != 0 || !strings.Contains(r.Err, "Deleted SSH key "+id) {
		t.Fatalf("answer y: exit %d\n%s", r.Code, r.Output())
	}
}
