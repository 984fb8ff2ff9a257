package admin_test

import (
	"context"
	"strings"
	"testing"

	"github.com/forgehq/forge/cmd"
	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/prompt/prompttest"
	"github.com/forgehq/forge/refserver/refservertest"
)

// TestUserDeleteAsksToTypeTheName: on a terminal, only the user name typed
// back deletes the account; anything else, or Ctrl-C, deletes nothing.
func TestUserDeleteAsksToTypeTheName(t *testing.T) {
	t.Parallel()
	srv := refservertest.Start(t)
	if _, err := srv.CreateUser("bob", "bob-password-1234", "user"); err != nil {
		t.Fatal(err)
	}
	token, err := srv.Token(srv.AdminUser())
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"FORGE_CONFIG_DIR": t.TempDir(), "FORGE_BASE_URL": srv.BaseURL(), "FORGE_TOKEN": token}
	// forge runs forge on a pretend terminal, typing answer at its one
	// question ("^C" is Ctrl-C).
	forge := func(answer string, args ...string) (int, *prompttest.Script, string, string) {
		ios, _, out, errOut := iostreams.Test()
		ios.SetStdinTTY(true)
		ios.SetStdoutTTY(true)
		f := cmdutil.New(ios, func(k string) string { return env[k] })
		p := &prompttest.Script{Answers: []any{answer}}
		if answer == "^C" {
			p.Answers = []any{context.Canceled}
		}
		f.Prompter = p
		code := cmd.Run(context.Background(), f, args)
		return code, p, out.String(), errOut.String()
	}
	bobExists := func() bool {
		_, _, out, _ := forge("", "admin", "user", "list", "--jq", ".[].login")
		return strings.Contains(out, "bob\n")
	}

	for _, answer := range []string{"bo", "yes", "^C"} {
		code, p, _, errOut := forge(answer, "admin", "user", "delete", "bob")
		want := 1
		if answer == "^C" {
			want = 130
		}
		if code != want || len(p.Questions()) != 1 || p.Questions()[0] != "Type bob to confirm" {
			t.Fatalf("answer %q: exit %d (want %d), questions %q, stderr:\n%s", answer, code, want, p.Questions(), errOut)
		}
		if !strings.Contains(errOut, "with its SSH keys, tokens and repositories, for good") {
			t.Errorf("no warning before the question:\n%s", errOut)
		}
		if !bobExists() {
			t.Fatalf("answer %q deleted bob", answer)
		}
	}
	code, _, _, errOut := forge("bob", "admin", "user", "delete", "bob")
	if code != 0 || !strings.Contains(errOut, "✓ Deleted bob") {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	if bobExists() {
		t.Fatal("bob survived a confirmed delete")
	}
}
