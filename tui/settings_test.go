package tui

import (
	"strings"
	"testing"

	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/tuitest"
)

// TestSettings: the configuration's tui section rebinds a shared key
// (the help and the footer say the new one; the old one does nothing),
// saves a filter on a key, and picks the high-contrast theme; NO_COLOR
// still wins over the theme.
func TestSettings(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	s := common.DefaultSettings()
	s.Theme = common.ThemeHighContrast
	s.Keys = map[string][]string{"help": {"H"}}
	h := start(t, srv, "alice", 100, 24, Options{Repo: webapp, Tab: tabCI, Settings: s})
	h.wait("CI on slog", "H help")
	// The selection in high contrast: black on yellow.
	if !strings.Contains(h.screen(), "38;5;16;48;5;226") {
		t.Errorf("the selection is not in the high-contrast colours:\n%q", h.screen())
	}
	h.keys("?")
	h.keys("f")
	v := h.settled()
	if strings.Contains(v, "any key closes") {
		t.Fatalf("? still opens the help")
	}
	// f is CI's saved filter: the failed runs.
	if p := h.plain(); !strings.Contains(p, "/fail") || strings.Contains(p, "CI on slog") {
		t.Errorf("f did not filter the failed runs:\n%s", p)
	}
	h.keys("H")
	h.wait("any key closes", "f      filter: fail", "H          help")

	// NO_COLOR: attributes only, whatever the theme.
	ctx := tuitest.Context(t, srv, "alice")
	plain := common.DefaultSettings()
	plain.Theme = common.ThemeHighContrast
	plain.Apply(ctx)
	ctx.SetTheme(false, true)
	if st := ctx.Styles.Selected.Render("x"); strings.Contains(st, "48;5") || !strings.Contains(st, "7") {
		t.Errorf("the selection without colour: %q", st)
	}
}
