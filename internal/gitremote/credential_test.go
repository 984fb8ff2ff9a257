package gitremote

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/text"
)

func TestCommandArgs(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	g := Git{Origin: "https://forge.example.com", Profile: "my work", NoPrompt: true}
	cmd := g.Command(context.Background(), "fetch", "origin")
	want := []string{"git",
		"-c", "credential.https://forge.example.com.helper=",
		"-c", "credential.https://forge.example.com.helper=!" + text.ShellQuote(self) + " --profile 'my work' auth git-credential",
		"fetch", "origin"}
	if !slices.Equal(cmd.Args, want) {
		t.Errorf("args\n%q\nwant\n%q", cmd.Args, want)
	}
	if !slices.Contains(cmd.Env, "GIT_TERMINAL_PROMPT=0") {
		t.Error("GIT_TERMINAL_PROMPT=0 not set")
	}
	// No origin: git as it is, with the environment it inherits.
	cmd = Git{}.Command(context.Background(), "diff")
	if !slices.Equal(cmd.Args, []string{"git", "diff"}) || cmd.Env != nil {
		t.Errorf("args %q, env %q", cmd.Args, cmd.Env)
	}
}

// TestCommandScopesTheHelper asks the real git which credential helper
// applies to a URL: for the origin, forge's; for another port, scheme or
// host, the user's, untouched. (That the user's helper is then neither
// asked nor told to store, pr_git.txtar and repo_clone.txtar show.)
func TestCommandScopesTheHelper(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", home)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	user := "store --file=" + filepath.Join(home, "creds")
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[credential]\n\thelper = "+user+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	g := Git{Origin: "http://127.0.0.1:8080"}
	helpers := func(url string) string {
		out, err := g.Command(context.Background(), "config", "--get-urlmatch", "credential.helper", url).Output()
		if err != nil {
			t.Fatalf("git config --get-urlmatch %s: %v", url, err)
		}
		return strings.TrimSpace(string(out))
	}
	if got, want := helpers("http://127.0.0.1:8080/alice/app.git"), "!"+HelperCommand(""); got != want {
		t.Errorf("for the origin: %q, want %q", got, want)
	}
	for _, url := range []string{"http://127.0.0.1:8081/alice/app.git", "https://127.0.0.1:8080/alice/app.git", "http://elsewhere.example:8080/alice/app.git"} {
		if got := helpers(url); got != user {
			t.Errorf("for %s: %q, want the user's %q", url, got, user)
		}
	}
}
