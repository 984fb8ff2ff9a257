package common

import "charm.land/bubbles/v2/key"

// KeyMap holds the keys every view shares. The help overlay is generated
// from these bindings and the views' own, so what it lists is what works.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Left, Right                             key.Binding
	Open, Back, Filter, Refresh             key.Binding
	Ask                                     key.Binding
	Edit, Copy, Browse, Suspend             key.Binding
	NextTab, PrevTab, GotoTab               key.Binding
	NextSection, PrevSection                key.Binding
	Help, Profiles, Login, Quit, ForceQuit  key.Binding
}

// NewKeyMap returns the default keys. It is built when the TUI starts,
// never at package initialisation.
func NewKeyMap() *KeyMap {
	b := func(keys []string, k, desc string) key.Binding { return Binding(k, desc, keys...) }
	return &KeyMap{
		Up:          b([]string{"up", "k"}, "↑/k", "up"),
		Down:        b([]string{"down", "j"}, "↓/j", "down"),
		PageUp:      b([]string{"pgup", "ctrl+b", "ctrl+u"}, "pgup", "page up"),
		PageDown:    b([]string{"pgdown", "ctrl+f", "ctrl+d", "space"}, "pgdn/space", "page down"),
		Top:         b([]string{"home", "g"}, "g/home", "first"),
		Bottom:      b([]string{"end", "G"}, "G/end", "last"),
		Left:        b([]string{"left", "h"}, "←/h", "scroll left"),
		Right:       b([]string{"right", "l"}, "→/l", "scroll right"),
		Open:        b([]string{"enter"}, "enter", "open"),
		Back:        b([]string{"esc"}, "esc", "back"),
		Filter:      b([]string{"/"}, "/", "filter"),
		Refresh:     b([]string{"r", "ctrl+r"}, "r", "refresh"),
		Ask:         b([]string{"a"}, "a", "ask the agent"),
		Edit:        b([]string{"ctrl+o"}, "ctrl+o", "edit in $EDITOR"),
		Copy:        b([]string{"y"}, "y", "copy the link"),
		Browse:      b([]string{"w"}, "w", "open in the web browser"),
		Suspend:     b([]string{"ctrl+z"}, "ctrl+z", "suspend (fg comes back)"),
		NextTab:     b([]string{"tab"}, "tab", "next tab"),
		PrevTab:     b([]string{"shift+tab"}, "shift+tab", "previous tab"),
		GotoTab:     b([]string{"1", "2", "3", "4", "5", "6"}, "1-6", "go to tab"),
		NextSection: b([]string{"right", "l", "]"}, "→/l", "next section"),
		PrevSection: b([]string{"left", "h", "["}, "←/h", "previous section"),
		Help:        b([]string{"?"}, "?", "help"),
		Profiles:    b([]string{"P"}, "P", "profiles"),
		Login:       b([]string{"L"}, "L", "log in again"),
		Quit:        b([]string{"q"}, "q", "quit"),
		ForceQuit:   b([]string{"ctrl+c"}, "ctrl+c", "stop a reply, or quit"),
	}
}

// Action is a shared key by the name the configuration gives it.
type Action struct {
	Name    string
	Binding *key.Binding
}

// Actions are the keys the configuration's tui.keys may rebind.
func (k *KeyMap) Actions() []Action {
	return []Action{
		{"up", &k.Up}, {"down", &k.Down}, {"page-up", &k.PageUp}, {"page-down", &k.PageDown},
		{"top", &k.Top}, {"bottom", &k.Bottom}, {"left", &k.Left}, {"right", &k.Right},
		{"open", &k.Open}, {"back", &k.Back}, {"filter", &k.Filter}, {"refresh", &k.Refresh},
		{"ask", &k.Ask}, {"edit", &k.Edit}, {"copy", &k.Copy}, {"browse", &k.Browse}, {"suspend", &k.Suspend},
		{"next-tab", &k.NextTab}, {"prev-tab", &k.PrevTab},
		{"next-section", &k.NextSection}, {"prev-section", &k.PrevSection},
		{"help", &k.Help}, {"profiles", &k.Profiles}, {"login", &k.Login}, {"quit", &k.Quit}, {"force-quit", &k.ForceQuit},
	}
}

// Navigation is the list and pager movement keys, for help columns.
func (k *KeyMap) Navigation() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
}

// Global is the keys the program handles itself, for the help overlay.
func (k *KeyMap) Global() []key.Binding {
	return []key.Binding{k.NextTab, k.PrevTab, k.GotoTab, k.Back, k.Profiles, k.Login, k.Help, k.Suspend, k.Quit, k.ForceQuit}
}

// Binding makes a view's own key binding.
func Binding(help, desc string, keys ...string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
}
