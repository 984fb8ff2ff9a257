package common

import (
	"strings"
	"testing"

	"github.com/forgehq/forge/config"
	"go.yaml.in/yaml/v3"
)

func readYAML(t *testing.T, src string) (*Settings, error) {
	t.Helper()
	var cf config.File
	if err := yaml.Unmarshal([]byte(src), &cf); err != nil {
		t.Fatal(err)
	}
	return ReadSettings(&cf)
}

// TestSettingsRoundTrip: what --print-config prints reads back as the
// same settings; the keys it rebinds are bound.
func TestSettingsRoundTrip(t *testing.T) {
	s, err := readYAML(t, "tui:\n  theme: light\n  keys:\n    browse: [o, w]\n  filters:\n    issues: {m: alice}\n")
	if err != nil {
		t.Fatal(err)
	}
	km := NewKeyMap()
	s.Bind(km)
	if got := km.Browse.Keys(); strings.Join(got, ",") != "o,w" || km.Browse.Help().Key != "o/w" {
		t.Errorf("browse is %v (%q)", got, km.Browse.Help().Key)
	}
	printed := s.YAML(km)
	again, err := readYAML(t, printed)
	if err != nil {
		t.Fatalf("%v:\n%s", err, printed)
	}
	km2 := NewKeyMap()
	again.Bind(km2)
	if p2 := again.YAML(km2); p2 != printed {
		t.Errorf("printed again differently:\n%s\nfirst:\n%s", p2, printed)
	}
	if again.Theme != "light" || again.Filters["issues"]["m"] != "alice" || again.Filters["ci"]["f"] != "fail" {
		t.Errorf("read back: %+v", again)
	}
}

// TestSettingsErrors: a wrong theme, action or list is refused with the
// choices named.
func TestSettingsErrors(t *testing.T) {
	for src, want := range map[string]string{
		"tui:\n  theme: neon\n":                `tui.theme "neon": choose one of auto, dark, light, high-contrast`,
		"tui:\n  keys:\n    launch: [x]\n":     "tui.keys.launch: no such action; choose among up, down,",
		"tui:\n  keys:\n    quit: []\n":        "tui.keys.quit: give at least one key",
		"tui:\n  filters:\n    wiki: {x: y}\n": "tui.filters.wiki: no such list; choose among repos, issues, ci, images",
		"tui:\n  keys: 3\n":                    "the tui section of the configuration",
	} {
		if _, err := readYAML(t, src); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v", src, err)
		}
	}
}

// TestThemeOverridesBackground: dark and light override what the
// terminal says of its background; auto follows it.
func TestThemeOverridesBackground(t *testing.T) {
	for theme, want := range map[string]bool{ThemeDark: true, ThemeLight: false, ThemeAuto: true, ThemeHighContrast: true} {
		c := &Context{Theme: theme}
		c.SetTheme(true, true)
		if c.Dark != want {
			t.Errorf("%s on a dark terminal: dark %v", theme, c.Dark)
		}
		c.SetTheme(true, false)
		if theme == ThemeAuto || theme == ThemeHighContrast {
			want = false
		}
		if c.Dark != want {
			t.Errorf("%s on a light terminal: dark %v", theme, c.Dark)
		}
	}
}

// TestSettingsRefuseConflicts: a key rebound onto another action's, or a
// filter saved on a shared key, is refused, naming both; the defaults'
// own pairs (left scrolls, or switches a section) are not.
func TestSettingsRefuseConflicts(t *testing.T) {
	if _, err := readYAML(t, "tui: {}\n"); err != nil {
		t.Fatalf("the defaults conflict: %v", err)
	}
	for src, want := range map[string]string{
		"tui:\n  keys:\n    refresh: [j]\n":             `tui.keys: "j" is both down's key and refresh's`,
		"tui:\n  filters:\n    issues: {L: alice}\n":    `tui.filters.issues: "L" is login's key (tui.keys.login)`,
		"tui:\n  filters:\n    ci: {j: fail}\n":         `tui.filters.ci: "j" is down's key`,
		"tui:\n  keys:\n    left: [x]\n    quit: [x]\n": `"x" is both left's key and quit's`,
	} {
		if _, err := readYAML(t, src); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v", src, err)
		}
	}
	if _, err := readYAML(t, "tui:\n  keys:\n    refresh: [R]\n    down: [j, J]\n  filters:\n    issues: {m: alice}\n"); err != nil {
		t.Errorf("no conflict refused: %v", err)
	}
}
