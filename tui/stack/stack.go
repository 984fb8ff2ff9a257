// Package stack holds the TUI's tabs, each a stack of components: the
// first made by the tab's root on its first visit, the others opened on
// top of it (enter pushes, esc pops). It knows nothing of drawing or of
// notices; the program routes messages to it and sizes what it opens.
package stack

import (
	"slices"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/tui/common"
)

// Tab is one top-level tab.
type Tab struct {
	Name string
	Root func(ctx *common.Context) common.Component
	// PerRepo tabs show the current repository and start afresh when
	// another one is chosen.
	PerRepo bool

	views []common.Component
}

// Views are the tab's open components, the first at the bottom.
func (t *Tab) Views() []common.Component { return t.views }

// Top is the component in view on the tab; nil before its first visit.
func (t *Tab) Top() common.Component {
	if len(t.views) == 0 {
		return nil
	}
	return t.views[len(t.views)-1]
}

// Stack is the tabs and which one is in sight.
type Stack struct {
	tabs             []*Tab
	active, previous int
	// size gives a component the area views get.
	size func(common.Component)
}

// New returns the tabs with tab active; size is called for every
// component opened.
func New(tabs []*Tab, active int, size func(common.Component)) *Stack {
	return &Stack{tabs: tabs, active: active, previous: active, size: size}
}

// Active is the number of the tab in sight; Previous the one before it.
func (s *Stack) Active() int   { return s.active }
func (s *Stack) Previous() int { return s.previous }

// Tabs are every tab, in order.
func (s *Stack) Tabs() []*Tab { return s.tabs }

// Tab is tab i.
func (s *Stack) Tab(i int) *Tab { return s.tabs[i] }

// Top is the component in view.
func (s *Stack) Top() common.Component { return s.tabs[s.active].Top() }

// Each calls f with every open component and the number of its tab.
func (s *Stack) Each(f func(tab int, c common.Component)) {
	for i, t := range s.tabs {
		for _, c := range t.views {
			f(i, c)
		}
	}
}

// Visit opens tab i, making its first component on the first visit; the
// command is the new component's Init.
func (s *Stack) Visit(ctx *common.Context, i int) tea.Cmd {
	t := s.tabs[i]
	if len(t.views) > 0 {
		return nil
	}
	c := t.Root(ctx)
	t.views = []common.Component{c}
	s.size(c)
	return c.Init()
}

// Switch makes tab to active, remembering the one left; false when to is
// no tab or already active.
func (s *Stack) Switch(to int) bool {
	if to < 0 || to >= len(s.tabs) || to == s.active {
		return false
	}
	s.previous, s.active = s.active, to
	return true
}

// Target is the tab msg asks for.
func (s *Stack) Target(msg common.SwitchTabMsg) int {
	switch {
	case msg.Back:
		return s.previous
	case msg.Delta != 0:
		return (s.active + msg.Delta + len(s.tabs)) % len(s.tabs)
	}
	return msg.Tab
}

// Push opens c on the active tab.
func (s *Stack) Push(c common.Component) tea.Cmd {
	t := s.tabs[s.active]
	t.views = append(t.views, c)
	s.size(c)
	return c.Init()
}

// Pop closes the active tab's top component, never its root; false when
// there was only the root.
func (s *Stack) Pop() bool {
	t := s.tabs[s.active]
	if len(t.views) > 1 {
		t.views = t.views[:len(t.views)-1]
		s.size(t.Top())
		return true
	}
	return false
}

// Close removes c and what was opened above it, in whatever tab; a root
// stays.
func (s *Stack) Close(c common.Component) {
	if n, i := s.find(c); n >= 0 && i > 0 {
		t := s.tabs[n]
		t.views = t.views[:i]
		s.size(t.Top())
	}
}

// Replace puts c in old's place, in whatever tab old is, closing what
// was above it; tab is old's tab, -1 when old is open nowhere.
func (s *Stack) Replace(old, c common.Component) (tab int, init tea.Cmd) {
	n, i := s.find(old)
	if n < 0 {
		return -1, nil
	}
	t := s.tabs[n]
	t.views = append(t.views[:i], c)
	s.size(c)
	return n, c.Init()
}

// find is the tab c is open in and its place there; -1, -1 when c is
// open nowhere.
func (s *Stack) find(c common.Component) (tab, i int) {
	for n, t := range s.tabs {
		if i := slices.Index(t.views, c); i >= 0 {
			return n, i
		}
	}
	return -1, -1
}

// ResetPerRepo closes every per-repository tab (another repository was
// chosen); the active one, if among them, opens again on its root.
func (s *Stack) ResetPerRepo(ctx *common.Context) tea.Cmd {
	var cmd tea.Cmd
	for i, t := range s.tabs {
		if t.PerRepo {
			t.views = nil
			if i == s.active {
				cmd = s.Visit(ctx, i)
			}
		}
	}
	return cmd
}

// Reset closes every tab (another profile).
func (s *Stack) Reset(tabs []*Tab) { s.tabs = tabs }

// Unsent names what the open components hold unsent, each once (a form
// is held by its list as well as open).
func (s *Stack) Unsent() []string {
	var unsent []string
	seen := map[string]bool{}
	s.Each(func(_ int, c common.Component) {
		if u, ok := c.(common.Unsent); ok {
			if n := u.Unsent(); n != "" && !seen[n] {
				seen[n] = true
				unsent = append(unsent, n)
			}
		}
	})
	return unsent
}
