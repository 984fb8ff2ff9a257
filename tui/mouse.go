package tui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/frame"
)

// click handles a mouse click: on the tab bar it switches to the tab
// clicked; in the view's area the view gets it, its rows counted from
// the view's top. (With Shift held, terminals keep clicks for their own
// text selection and do not report them.)
func (a *App) click(msg tea.MouseClickMsg) tea.Cmd {
	if a.showHelp || a.switcher != nil || a.login != nil || a.bar.Asking() || msg.Mod&tea.ModShift != 0 {
		return nil
	}
	if a.fullscreen() {
		return a.toTop(msg)
	}
	_, h := a.area()
	switch {
	case msg.Y == 0 && msg.Button == tea.MouseLeft:
		if i := a.frame.TabAt(a.tabNames(), a.stack.Active(), msg.X); i >= 0 {
			return a.switchTab(common.SwitchTabMsg{Tab: i})
		}
	case msg.Y >= frame.Above && msg.Y < frame.Above+h:
		msg.Y -= frame.Above
		return a.toTop(msg)
	}
	return nil
}

// tabNames are the tabs' names, in order.
func (a *App) tabNames() []string {
	var names []string
	for _, t := range a.stack.Tabs() {
		names = append(names, t.Name)
	}
	return names
}
