package tui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/tui/common"
)

// tokenChanged puts a token the service issued in place of the old one
// (a password change) to work: the profile's configuration read again,
// msg's client used from now on.
func (a *App) tokenChanged(msg common.TokenChangedMsg) tea.Cmd {
	if msg.Profile != a.ctx.Profile {
		return nil
	}
	f := a.ctx.Factory
	if a.opts.NewFactory != nil {
		f = a.opts.NewFactory(msg.Profile)
	}
	a.ctx.Reload(f, msg.Client)
	a.loginOffered = nil
	return nil
}
