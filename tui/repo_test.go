package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/tui/tuitest"
)

func TestOpenAnyRepositoryByName(t *testing.T) {
	t.Parallel()
	// carol owns carol/handbook; alice/webapp is public, alice/infra private.
	h := start(t, tuitest.Server(t), "carol", 80, 24, Options{})
	h.wait("carol/handbook")
	h.keys("o")
	h.wait("Open OWNER/NAME:")
	h.typeText("alice/infra")
	h.keys("enter")
	h.wait("alice/infra: no such repository, or not one you may see")
	for range len("alice/infra") {
		h.keys("backspace")
	}
	h.typeText("alice/webapp")
	h.keys("enter")
	h.wait("Repositories › alice/webapp", "Support graceful shutdown")
	// It is the current repository: the Issues tab shows its issues.
	h.keys("2")
	h.wait("alice/webapp › Issues", "Use structured logging")
}

func TestRemembersTheLastRepository(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	env := tuitest.Env(t, srv, "alice")
	h := startEnv(t, srv, env, 80, 24, Options{})
	h.wait("alice/infra")
	h.keys("j", "enter")
	h.wait("Repositories › alice/infra")

	path := filepath.Join(env["HOME"], ".local", "state", "forge", "tui.json")
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile(path)
		if err == nil && strings.Contains(string(b), `"alice/infra"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the last repository was not written to %s: %v %s", path, err, b)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the state file: %v, mode %v", err, fi.Mode())
	}

	// The next launch, without -R and outside a clone, starts on it.
	again := startEnv(t, srv, env, 80, 24, Options{Tab: tabIssues})
	again.wait("alice/infra › Issues")
}
