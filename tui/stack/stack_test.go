package stack

import (
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/tui/common"
)

// view is a component that only has a name.
type view struct {
	name   string
	sized  bool
	unsent string
}

func (v *view) Init() tea.Cmd             { return nil }
func (v *view) Update(tea.Msg) tea.Cmd    { return nil }
func (v *view) View() string              { return v.name }
func (v *view) SetSize(int, int)          { v.sized = true }
func (v *view) Title() string             { return v.name }
func (v *view) ShortHelp() []key.Binding  { return nil }
func (v *view) FullHelp() [][]key.Binding { return nil }
func (v *view) Unsent() string            { return v.unsent }

func tabs() []*Tab {
	root := func(name string) func(*common.Context) common.Component {
		return func(*common.Context) common.Component { return &view{name: name} }
	}
	return []*Tab{{Name: "A", Root: root("a")}, {Name: "B", Root: root("b"), PerRepo: true}}
}

func TestStack(t *testing.T) {
	s := New(tabs(), 0, func(c common.Component) { c.(*view).sized = true })
	s.Visit(nil, 0)
	if top := s.Top().(*view); top.name != "a" || !top.sized {
		t.Fatalf("the first visit: %+v", top)
	}
	x, y := &view{name: "x", unsent: "a draft"}, &view{name: "y", unsent: "a draft"}
	s.Push(x)
	s.Push(y)
	if got := s.Unsent(); len(got) != 1 {
		t.Errorf("the same unsent thing is named %d times", len(got))
	}
	s.Close(x) // and y above it
	if s.Top().Title() != "a" {
		t.Errorf("after closing x: %s on top", s.Top().Title())
	}
	s.Pop() // never the root
	if s.Top() == nil {
		t.Fatal("pop closed the root")
	}
	if !s.Switch(1) || s.Active() != 1 || s.Previous() != 0 || s.Switch(1) || s.Switch(5) {
		t.Fatalf("switch: active %d previous %d", s.Active(), s.Previous())
	}
	s.Visit(nil, 1)
	b := s.Top()
	if tab, _ := s.Replace(b, &view{name: "c"}); tab != 1 || s.Top().Title() != "c" {
		t.Errorf("replace: tab %d, %s on top", tab, s.Top().Title())
	}
	s.ResetPerRepo(nil)
	if s.Top().Title() != "b" || len(s.Tab(0).Views()) != 1 {
		t.Errorf("after another repository: %s on top, tab A has %d views", s.Top().Title(), len(s.Tab(0).Views()))
	}
	if got := s.Target(common.SwitchTabMsg{Back: true}); got != 0 {
		t.Errorf("back targets %d", got)
	}
	if got := s.Target(common.SwitchTabMsg{Delta: 1}); got != 0 {
		t.Errorf("next from the last tab targets %d", got)
	}
}
