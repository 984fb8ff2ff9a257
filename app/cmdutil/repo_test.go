package cmdutil

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/internal/iostreams"
)

func factoryWithEnv(t *testing.T, env map[string]string) *Factory {
	t.Helper()
	ios, _, _, _ := iostreams.Test()
	env["FORGE_CONFIG_DIR"] = t.TempDir()
	return New(ios, func(k string) string { return env[k] })
}

func TestBaseRepoPrecedence(t *testing.T) {
	ctx := context.Background()
	f := factoryWithEnv(t, map[string]string{"FORGE_REPO": "env/repo"})
	if r, err := f.BaseRepo(ctx, "flag/repo"); err != nil || r.String() != "flag/repo" {
		t.Errorf("flag: %v %v", r, err)
	}
	if r, err := f.BaseRepo(ctx, ""); err != nil || r.String() != "env/repo" {
		t.Errorf("env: %v %v", r, err)
	}
	if _, err := f.BaseRepo(ctx, "not-a-repo"); cmdcore.ExitCode(err) != cmdcore.ExitUsage {
		t.Errorf("bad -R: %v", err)
	}
}

func TestBaseRepoFromGitRemotes(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	for _, args := range [][]string{
		{"init", "-q"},
		{"remote", "add", "origin", "http://127.0.0.1:8080/alice/app.git"},
		{"remote", "add", "elsewhere", "https://other.example/bob/x.git"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	t.Chdir(dir)
	ctx := context.Background()
	f := factoryWithEnv(t, map[string]string{"FORGE_BASE_URL": "http://127.0.0.1:8080/api/v2"})
	if r, err := f.BaseRepo(ctx, ""); err != nil || r.String() != "alice/app" {
		t.Fatalf("inferred %v, %v", r, err)
	}
	f = factoryWithEnv(t, map[string]string{"FORGE_BASE_URL": "https://nowhere.example/api/v2"})
	_, err := f.BaseRepo(ctx, "")
	if cmdcore.ExitCode(err) != cmdcore.ExitUsage || !strings.Contains(err.Error(), "pass -R OWNER/REPO") {
		t.Fatalf("no matching remote: %v", err)
	}
	t.Chdir(t.TempDir())
	if _, err := f.BaseRepo(ctx, ""); cmdcore.ExitCode(err) != cmdcore.ExitUsage || !strings.Contains(err.Error(), "not in a git repository") {
		t.Fatalf("outside git: %v", err)
	}
}

// A host in -R selects the profile for that server; the choice carries to
// factories made from this one (the TUI's) and to the settings.
func TestBaseRepoHostSelectsProfile(t *testing.T) {
	env := map[string]string{}
	f := factoryWithEnv(t, env)
	cfg := "current_profile: a\nprofiles:\n  a:\n    base_url: http://127.0.0.1:1000/api/v2\n  b:\n    base_url: http://127.0.0.1:2000/api/v2\n"
	if err := os.WriteFile(filepath.Join(env["FORGE_CONFIG_DIR"], "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	r, err := f.BaseRepo(ctx, "http://127.0.0.1:2000/bob/x.git")
	if err != nil || r.String() != "bob/x" {
		t.Fatalf("BaseRepo: %v, %v", r, err)
	}
	s, err := f.Settings()
	if err != nil || s.Profile != "b" || f.ProfileChoice() != "b" {
		t.Fatalf("profile after -R on b's host: %v (choice %q), %v", s, f.ProfileChoice(), err)
	}
	_, err = f.BaseRepo(ctx, "forge.example.com/alice/x")
	if cmdcore.ExitCode(err) != cmdcore.ExitUsage || !strings.Contains(err.Error(), "profiles: a (http://127.0.0.1:1000/api/v2), b (http://127.0.0.1:2000/api/v2)") {
		t.Fatalf("unknown host: %v", err)
	}
}
