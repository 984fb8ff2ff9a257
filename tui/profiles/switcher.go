// Package profiles holds the TUI's profile switcher: the configuration
// file's profiles (production, dev, ...) in an overlay, to work with
// another one without leaving the program.
package profiles

import (
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
)

type loadedMsg struct {
	file *config.File
	err  error
}

// CloseMsg closes the switcher.
type CloseMsg struct{}

// Switcher lists the profiles: enter switches to one for this session, u
// also makes it the current profile in the configuration file (as `forge
// profile use` does), esc closes.
type Switcher struct {
	ctx    *common.Context
	table  *components.Table
	names  []string
	load   common.Load
	width  int
	height int
	// env notes the variables that override every profile's values.
	env []string

	keyUse, keySave key.Binding
}

// New returns the switcher; Init reads the configuration file.
func New(ctx *common.Context) *Switcher {
	s := &Switcher{ctx: ctx}
	s.table = components.NewTable(ctx,
		components.Column{Title: "PROFILE", Width: 14},
		components.Column{Title: "SERVICE", Flex: 1, Min: 10},
		components.Column{Title: "USER", Width: 10},
	)
	s.table.Empty = "No profiles yet: add one with `forge profile add NAME --base-url URL`."
	s.keyUse = common.Binding("enter", "switch", "enter")
	s.keySave = common.Binding("u", "switch, make current", "u")
	s.env = overriding(ctx.Factory.Getenv)
	return s
}

// overriding names the variables set that override the profiles' values.
func overriding(getenv func(string) string) []string {
	var set []string
	for _, v := range []string{"FORGE_BASE_URL", "FORGE_TOKEN", "FORGE_PROFILE"} {
		if getenv(v) != "" {
			set = append(set, v)
		}
	}
	return set
}

// Init reads the configuration file.
func (s *Switcher) Init() tea.Cmd {
	s.load.Start()
	f := s.ctx.Factory
	return func() tea.Msg {
		path, err := f.ConfigPath()
		if err != nil {
			return loadedMsg{err: err}
		}
		cf, err := config.Load(path)
		return loadedMsg{file: cf, err: err}
	}
}

func (s *Switcher) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case loadedMsg:
		s.load.Finish(s.load.Gen, msg.err)
		if msg.err != nil {
			return common.Error(msg.err)
		}
		s.setRows(msg.file)
	case tea.KeyPressMsg:
		return s.key(msg)
	case tea.PasteMsg:
		s.table.Update(msg)
	}
	return nil
}

func (s *Switcher) key(msg tea.KeyPressMsg) tea.Cmd {
	if s.table.Capturing() {
		_, cmd := s.table.Update(msg)
		return cmd
	}
	switch {
	case msg.String() == "esc" && !s.table.CanGoBack(), msg.String() == "q", msg.String() == "P":
		return func() tea.Msg { return CloseMsg{} }
	case key.Matches(msg, s.keyUse), key.Matches(msg, s.keySave):
		i := s.table.SelectedIndex()
		if i < 0 {
			return nil
		}
		sw := common.SwitchProfileMsg{Profile: s.names[i], Save: key.Matches(msg, s.keySave)}
		return func() tea.Msg { return sw }
	}
	_, cmd := s.table.Update(msg)
	return cmd
}

func (s *Switcher) setRows(cf *config.File) {
	st := s.ctx.Styles
	s.names = cf.ProfileNames()
	sort.Strings(s.names)
	rows := make([]components.Row, len(s.names))
	cursor := 0
	for i, n := range s.names {
		p := cf.Profile(n)
		name := n
		if n == s.ctx.Profile {
			name = "● " + n
			cursor = i
		} else {
			name = "  " + n
		}
		if n == cf.ProfileKey(cf.CurrentProfile) {
			name += st.Dim.Render(" *")
		}
		rows[i] = components.Row{Key: n, Cells: []string{name, text.OneLine(config.Origin(p.BaseURL)), text.OneLine(p.User)}}
	}
	s.table.SetRows(rows)
	s.table.Move(cursor)
}

// SetSize gives the switcher the terminal's size; it draws a box within.
func (s *Switcher) SetSize(width, height int) {
	s.width, s.height = width, height
	s.table.SetSize(min(width-6, 70), min(max(len(s.names)+1, 3), max(height-10, 3)))
}

// View draws the box.
func (s *Switcher) View() string {
	st := s.ctx.Styles
	w := min(s.width-6, 70)
	s.table.SetSize(w, min(max(len(s.names)+1, 3), max(s.height-10, 3)))
	var b strings.Builder
	b.WriteString(st.BoxTitle.Render("Profiles") + st.Dim.Render(" · ● in use, * current in the file") + "\n\n")
	if s.load.Busy {
		b.WriteString(st.Accent.Render(s.ctx.Spinner) + " Reading the configuration…")
	} else {
		b.WriteString(s.table.View())
	}
	b.WriteString("\n\n" + st.Dim.Render("enter switches for this session · u also makes it current · esc closes"))
	if len(s.env) > 0 {
		verb := " overrides every profile"
		if len(s.env) > 1 {
			verb = " override every profile"
		}
		b.WriteString("\n" + st.Warning.Render(strings.Join(s.env, ", ")+verb))
	}
	return st.Box.Render(common.Pad(b.String(), w, strings.Count(b.String(), "\n")+1))
}

// Animating reports whether the file is being read.
func (s *Switcher) Animating() bool { return s.load.Busy }

// KeyHelp lists the switcher's keys for the help line, short enough for
// 80 columns (the box says the rest: for the session, or also current).
func (s *Switcher) KeyHelp() []key.Binding {
	k := s.ctx.Keys
	move := common.Binding("↑/↓", "move", append(k.Up.Keys(), k.Down.Keys()...)...)
	return []key.Binding{s.keyUse, s.keySave, common.Binding("esc", "close", "esc"), move, k.Filter}
}
