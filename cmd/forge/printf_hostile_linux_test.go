package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/forgehq/forge/testkit/servicefixture"
)

// TestHostileValuesInMessagesOnATerminal: the messages commands print
// through IOStreams.Printf and ErrPrintf — what was created or commented
// and where, who was invited — carry a hostile service's values (every string
// ends in a window title, a screen clear, a C1 CSI, a clipboard write
// (OSC 52), a hyperlink and a bidi override). On a real pseudo-terminal,
// with colour on, each value arrives visible and neutralised, while
// forge's own colours (the green ✓ of a message) still pass.
func TestHostileValuesInMessagesOnATerminal(t *testing.T) {
	s := servicefixture.New(t, servicefixture.Options{Hostile: true, Issues: 1, Repos: 1, Users: 1})
	dir := t.TempDir()
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "FORGE_CONFIG_DIR=" + dir, "TERM=xterm-256color"}
	login := exec.Command("forge", "auth", "login", "--base-url", s.BaseURL, "--username", servicefixture.Login, "--password-stdin", "--insecure-storage", "--setup-git=false")
	login.Env, login.Stdin = env, strings.NewReader(servicefixture.Password+"\n")
	if out, err := login.CombinedOutput(); err != nil {
		t.Fatalf("login: %v\n%s", err, out)
	}
	const shown = "^[]0;pwned^G^[[2J<U+009B>31m^[]52;c;cHduZWQ=^G^[]8;;http://evil^[\\x<U+202E>"
	for _, c := range []struct {
		args   []string
		styled bool // a success message in forge's green
	}{
		{[]string{"issue", "comment", "1", "-R", "alice/app", "--body", "b"}, true},
		{[]string{"repo", "create", "demo"}, true},
		{[]string{"issue", "create", "-R", "alice/app", "--title", "t", "--body", "b"}, true},
		{[]string{"admin", "invite", "create", "dave", "--email", "d@example.com"}, true},
	} {
		name := "forge " + strings.Join(c.args, " ")
		screen, code := onPTY(t, env, c.args...)
		if code != 0 {
			t.Errorf("%s: exit %d\n%s", name, code, screen)
		}
		if !strings.Contains(screen, shown) {
			t.Errorf("%s showed no value of the service's, or not visibly:\n%q", name, screen)
		}
		if r, bad := servicefixture.Unsafe(screen); bad {
			t.Errorf("%s: %U reached the terminal:\n%q", name, r, screen)
		}
		if c.styled && !strings.Contains(screen, "\x1b[32m✓\x1b[0m") {
			t.Errorf("%s: forge's own green ✓ did not pass:\n%q", name, screen)
		}
	}
}
