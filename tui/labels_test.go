package tui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/forgehq/forge/tui/tuitest"
)

var escBack = regexp.MustCompile(`esc +back`)

// lastLine is the frame's help line.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

func TestReposVisibilityColumnHasAHeader(t *testing.T) {
	t.Parallel()
	h := start(t, tuitest.Server(t), "alice", 80, 24, Options{})
	s := h.wait("alice/webapp", "private")
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "NAME") && !strings.Contains(l, "VISIBILITY") {
			t.Fatalf("the header has no name for the public/private column: %q", l)
		}
	}
}

// writeProfiles gives the harness's configuration a production and a dev
// profile (dev on srv).
func writeProfiles(t *testing.T, h *harness) {
	t.Helper()
	dir := h.app.ctx.Factory.Getenv("FORGE_CONFIG_DIR")
	cfg := "current_profile: production\nprofiles:\n  production:\n    base_url: https://forge.example.com/api/v2\n    user: alice\n  dev:\n    base_url: " + h.srv.BaseURL() + "\n    user: alice\n"
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestProfilesOverrideNoteAndFooter(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	env := tuitest.Env(t, srv, "alice")
	delete(env, "FORGE_TOKEN")
	h := startEnv(t, srv, env, 80, 24, Options{})
	writeProfiles(t, h)
	h.keys("P")
	s := h.wait("Profiles", "https://forge.example.com")
	if !strings.Contains(s, "FORGE_BASE_URL overrides every profile") {
		t.Errorf("one variable set, the note should say 'overrides':\n%s", s)
	}
	// The help line of the switcher fits 80 columns: nothing cut.
	foot := lastLine(s)
	if strings.Contains(foot, "…") || !strings.Contains(foot, "/ filter") || !strings.Contains(foot, "esc close") {
		t.Errorf("the switcher's help line is cut or incomplete at 80 columns: %q", foot)
	}
}

func TestLogHelpListsEscOnce(t *testing.T) {
	t.Parallel()
	h := start(t, tuitest.Server(t), "alice", 80, 30, Options{Repo: tuitest.Webapp, Tab: tabCI})
	h.wait("CI on router")
	h.keys("j", "j", "j", "enter")
	h.wait("cancelled · pull_request on router")
	h.keys("enter")
	h.wait("build · ", "lines 1–")
	h.keys("?")
	s := h.wait("any key closes")
	if n := len(escBack.FindAllString(s, -1)); n != 1 {
		t.Errorf("the log view's help lists esc back %d times:\n%s", n, s)
	}
}

func TestSectionKeysNotOfferedWhileTyping(t *testing.T) {
	t.Parallel()
	// Wide enough for the whole help line.
	h := start(t, tuitest.Server(t), "alice", 120, 24, Options{})
	h.wait("alice/webapp")
	h.keys("enter")
	s := h.wait("Support graceful shutdown", "→ section")
	if !strings.Contains(lastLine(s), "section") {
		t.Fatalf("the page's help line does not offer ←/→ section: %q", lastLine(s))
	}
	h.keys("/")
	h.wait("type to filter")
	h.gone("→ section")
	if s := h.plain(); strings.Contains(lastLine(s), "section") {
		t.Errorf("while the filter has the keys, the help line offers ←/→ section: %q", lastLine(s))
	}
}
