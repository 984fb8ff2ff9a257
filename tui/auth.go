package tui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/login"
	"github.com/forgehq/forge/tui/statusbar"
)

// The service refusing the token (a restarted server, a revoked token)
// opens the login form once per profile; L opens it again. r reads the
// configuration again first, so a token another shell stored (`forge auth
// login`) is used at once.

// credsMsg is the configuration read again for r: f is a fresh factory
// of the profile, changed whether its token or service differs from the
// one in use.
type credsMsg struct {
	ctx     *common.Context
	f       *cmdutil.Factory
	changed bool
	token   bool // the REST token is another
	then    common.Refresher
}

// creds are what a profile's clients are built from: any of them
// changed (a login in another shell: forge auth login, forge image
// login, forge auth agent-key) makes new clients.
type creds struct {
	base, token, agent, agentKey, registry, regUser, regPassword string
}

func credentials(s *config.Settings) creds {
	return creds{s.BaseURL, s.Token, s.AgentURL, s.AgentKey, s.RegistryURL, s.RegistryUser, s.RegistryPassword}
}

// unauthorized handles the service's refusal of the token: the status
// line says so, and the login form opens the first time.
func (a *App) unauthorized(msg common.StatusMsg) tea.Cmd {
	msg.Text = "L logs in again · " + msg.Text
	cmd := a.setStatus(msg)
	if a.loginOffered == a.ctx || a.login != nil || a.switcher != nil {
		return cmd
	}
	a.loginOffered = a.ctx
	// The whole error stays in the status line; the form says it plainly.
	return tea.Batch(cmd, a.openLogin("The service no longer accepts this profile's token (HTTP 401)."))
}

// openLogin shows the login form over the view.
func (a *App) openLogin(reason string) tea.Cmd {
	if s, err := a.ctx.Settings(); err != nil || s.BaseURL == "" {
		return common.Status("This profile names no service: run `forge auth login --base-url https://HOST/api/v2`.")
	}
	a.login = login.New(a.ctx, reason)
	a.login.SetSize(a.ctx.Width, a.ctx.Height)
	return a.login.Init()
}

// loggedIn puts the new token to work: a fresh factory of the profile
// (the configuration as just written) with the form's client, and every
// tab's view in sight loads again.
func (a *App) loggedIn(msg login.DoneMsg) tea.Cmd {
	a.login = nil
	f := a.opts.Factory
	if a.opts.NewFactory != nil {
		f = a.opts.NewFactory(msg.Profile)
	}
	a.ctx.Reload(f, msg.Client)
	a.loginOffered = nil
	// The refusals the tabs show were answered.
	a.bar.Reset()
	note := "Logged in as " + msg.User + "; the token is stored in profile " + msg.Profile + "."
	for _, n := range msg.Notes {
		note += " " + n + "."
	}
	if restart := a.account(msg.User); restart != nil {
		return tea.Batch(restart, common.Status(note+" The tabs start afresh for this account."))
	}
	return tea.Batch(common.Status(note), a.refreshAll())
}

// refreshAll reloads the view in sight of every tab.
func (a *App) refreshAll() tea.Cmd {
	var cmds []tea.Cmd
	for i, t := range a.stack.Tabs() {
		if r, ok := t.Top().(common.Refresher); ok {
			cmds = append(cmds, statusbar.FromTab(i, r.Refresh()))
		}
	}
	return tea.Batch(cmds...)
}

// refresh is the r key: the configuration is read again (another shell
// may have logged in, to the service, the agent or the registry), then r
// refreshes the view.
func (a *App) refresh(r common.Refresher) tea.Cmd {
	if a.opts.NewFactory == nil {
		return r.Refresh()
	}
	ctx, old, profile, newFactory := a.ctx, a.ctx.Factory, a.ctx.Profile, a.opts.NewFactory
	return func() tea.Msg {
		f := newFactory(profile)
		now, err := f.Settings()
		if err != nil {
			return credsMsg{ctx: ctx, then: r}
		}
		was, err := old.Settings()
		if err != nil {
			return credsMsg{ctx: ctx, then: r}
		}
		return credsMsg{ctx: ctx, f: f, changed: credentials(now) != credentials(was), token: now.Token != was.Token, then: r}
	}
}

// credsRead takes the configuration read for r.
func (a *App) credsRead(msg credsMsg) tea.Cmd {
	if msg.ctx != a.ctx {
		return nil // another profile since
	}
	if msg.changed {
		a.ctx.Reload(msg.f, nil)
		var restart tea.Cmd
		if s, err := msg.f.Settings(); err == nil && s.User != "" {
			restart = a.account(s.User)
		}
		if restart != nil {
			a.loginOffered = nil
			return tea.Batch(restart, common.Status("Profile "+a.ctx.Profile+" is another account's since: the tabs start afresh for it."))
		}
		a.loginOffered = nil
		a.bar.Reset()
		what := "the credentials"
		if msg.token {
			what = "the token"
		}
		// Every tab's view in sight reads again with them; the others
		// do when they are shown.
		return tea.Batch(common.Status("Using "+what+" stored in profile "+a.ctx.Profile+" since."), a.refreshAll())
	}
	return msg.then.Refresh()
}
