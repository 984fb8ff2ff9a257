package common

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/forgehq/forge/config"
	"go.yaml.in/yaml/v3"
)

// The themes of tui.theme.
const (
	ThemeAuto         = "auto" // the terminal's background decides dark or light
	ThemeDark         = "dark"
	ThemeLight        = "light"
	ThemeHighContrast = "high-contrast"
)

// Themes lists the themes, for errors and --print-config.
var Themes = []string{ThemeAuto, ThemeDark, ThemeLight, ThemeHighContrast}

// Lists names the lists whose filters tui.filters may save.
var Lists = []string{"repos", "issues", "ci", "images"}

// Settings are the tui section of forge's configuration file: the
// theme, the shared keys rebound, and filters saved on a key per list.
type Settings struct {
	Theme string `yaml:"theme"`
	// Keys maps an action (KeyMap.Actions) to the keys that do it.
	Keys map[string][]string `yaml:"keys,omitempty"`
	// Filters maps a list to keys, each typing a filter.
	Filters map[string]map[string]string `yaml:"filters,omitempty"`
}

// DefaultSettings are the settings without a tui section: the CI list
// finds failed runs on f.
func DefaultSettings() *Settings {
	return &Settings{Theme: ThemeAuto, Filters: map[string]map[string]string{"ci": {"f": "fail"}}}
}

// ReadSettings reads the tui section of cf over the defaults, and checks
// it: an unknown theme, action or list is an error naming the choices.
func ReadSettings(cf *config.File) (*Settings, error) {
	s := DefaultSettings()
	if raw, ok := cf.Extra["tui"]; ok && raw != nil {
		b, err := yaml.Marshal(raw)
		if err == nil {
			var read Settings
			if err = yaml.Unmarshal(b, &read); err == nil {
				s.merge(&read)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("the tui section of the configuration: %w", err)
		}
	}
	return s, s.check()
}

func (s *Settings) merge(r *Settings) {
	if r.Theme != "" {
		s.Theme = r.Theme
	}
	s.Keys = r.Keys
	for list, fs := range r.Filters {
		s.Filters[list] = fs
	}
}

func (s *Settings) check() error {
	if !slices.Contains(Themes, s.Theme) {
		return fmt.Errorf("tui.theme %q: choose one of %s", s.Theme, strings.Join(Themes, ", "))
	}
	names := actionNames()
	for a, keys := range s.Keys {
		if !slices.Contains(names, a) {
			return fmt.Errorf("tui.keys.%s: no such action; choose among %s", a, strings.Join(names, ", "))
		}
		if len(keys) == 0 {
			return fmt.Errorf("tui.keys.%s: give at least one key", a)
		}
	}
	for list, fs := range s.Filters {
		if !slices.Contains(Lists, list) {
			return fmt.Errorf("tui.filters.%s: no such list; choose among %s", list, strings.Join(Lists, ", "))
		}
		for k := range fs {
			if k == "" {
				return fmt.Errorf("tui.filters.%s: a filter needs a key", list)
			}
		}
	}
	return s.conflicts()
}

// sharedKeys are the pairs of actions that may share a key: never
// asked for in the same view (a pager scrolls sideways, a page of
// sections switches them).
var sharedKeys = [][2]string{{"left", "prev-section"}, {"right", "next-section"}}

// conflicts refuses a key given to two things at once — an action
// rebound onto another's key, a filter saved on a shared key: one of
// the two would never be reached (j bound to refresh stops moving down,
// a filter on L opens the login form).
func (s *Settings) conflicts() error {
	km := NewKeyMap()
	s.Bind(km)
	owner := map[string]string{} // key → the action that has it
	for _, a := range km.Actions() {
		for _, k := range a.Binding.Keys() {
			if other, ok := owner[k]; ok && !slices.Contains(sharedKeys, [2]string{other, a.Name}) {
				return fmt.Errorf("tui.keys: %q is both %s's key and %s's, and only one of them would work; give one of them another key", k, other, a.Name)
			}
			owner[k] = a.Name
		}
	}
	for _, list := range Lists {
		for _, k := range slices.Sorted(maps.Keys(s.Filters[list])) {
			if a, ok := owner[k]; ok {
				return fmt.Errorf("tui.filters.%s: %q is %s's key (tui.keys.%s), so the filter would never be typed; save it on another key", list, k, a, a)
			}
		}
	}
	return nil
}

func actionNames() []string {
	var names []string
	for _, a := range NewKeyMap().Actions() {
		names = append(names, a.Name)
	}
	return names
}

// Apply rebinds c's keys and sets its theme and saved filters.
func (s *Settings) Apply(c *Context) {
	s.Bind(c.Keys)
	c.Theme, c.Filters = s.Theme, s.Filters
	if s.Theme != ThemeAuto {
		// auto's styles are built already; building them costs 20 KB of
		// the first frame.
		c.SetTheme(c.Color, c.Dark)
	}
}

// Bind rebinds the keys of km that tui.keys names; the help shows the
// new keys.
func (s *Settings) Bind(km *KeyMap) {
	for _, a := range km.Actions() {
		if keys, ok := s.Keys[a.Name]; ok {
			a.Binding.SetKeys(keys...)
			a.Binding.SetHelp(strings.Join(keys, "/"), a.Binding.Help().Desc)
		}
	}
}

// YAML is the settings as the configuration file holds them, with every
// action and its keys spelled out: what `forge tui --print-config`
// prints, to paste and edit.
func (s *Settings) YAML(keys *KeyMap) string {
	var b strings.Builder
	b.WriteString("# forge tui's settings: the tui section of forge's config.yaml.\n")
	fmt.Fprintf(&b, "tui:\n  # %s; NO_COLOR still turns colour off.\n  theme: %s\n", strings.Join(Themes, ", "), s.Theme)
	b.WriteString("  # The keys every view shares (a view's own keys are in its ? help).\n  keys:\n")
	for _, a := range keys.Actions() {
		fmt.Fprintf(&b, "    %s: [%s]  # %s\n", a.Name, quoteKeys(a.Binding.Keys()), a.Binding.Help().Desc)
	}
	fmt.Fprintf(&b, "  # Filters typed by one key, per list (%s).\n  filters:\n", strings.Join(Lists, ", "))
	for _, list := range Lists {
		fs := s.Filters[list]
		if len(fs) == 0 {
			continue
		}
		fmt.Fprintf(&b, "    %s:\n", list)
		ks := make([]string, 0, len(fs))
		for k := range fs {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		for _, k := range ks {
			fmt.Fprintf(&b, "      %q: %q\n", k, fs[k])
		}
	}
	return b.String()
}

func quoteKeys(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = fmt.Sprintf("%q", k)
	}
	return strings.Join(q, ", ")
}

// FilterBinding is the help entry of a saved filter.
func FilterBinding(k, filter string) key.Binding {
	return Binding(k, "filter: "+filter, k)
}
