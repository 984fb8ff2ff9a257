// Package account holds the TUI's account views: the profile and state of
// the account, its SSH keys (add from a file, delete), and two-factor
// authentication (set up with the QR code drawn in the view and a code to
// confirm; turned off with a code).
package account

import (
	"context"
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
)

// changedMsg tells the account's sections that the account changed (a key
// added, two-factor authentication turned on): the profile reloads.
type changedMsg struct{}

func changed() tea.Msg { return changedMsg{} }

// New returns the Account tab: profile, SSH keys, two-factor.
func New(ctx *common.Context) *components.SectionPage {
	header := func() string {
		st := ctx.Styles
		who := ctx.User
		if who == "" {
			who = "not logged in"
		}
		return st.Bold.Render("Account") + st.Dim.Render(" · "+text.OneLine(who)+" · profile "+text.OneLine(ctx.Profile))
	}
	return components.NewSectionPage(ctx, "Account", header, newProfile(ctx), newKeys(ctx), newTwoFA(ctx))
}

// account is what the profile shows: the user and the account's state.
type account struct {
	me    *client.User
	state *client.UserState
}

// profile shows who the account is and how forge reaches the service.
type profile struct {
	ctx    *common.Context
	id     int
	load   common.Load
	me     *client.User
	state  *client.UserState
	pager  *components.Pager
	width  int
	height int
}

func newProfile(ctx *common.Context) *profile {
	return &profile{ctx: ctx, id: ctx.NewID(), pager: components.NewPager(ctx)}
}

func (p *profile) Init() tea.Cmd    { return p.fetch() }
func (p *profile) Refresh() tea.Cmd { return p.fetch() }

func (p *profile) fetch() tea.Cmd {
	return common.LoadREST(p.ctx, &p.load, p.id, func(ctx context.Context, c *client.Client) (account, error) {
		me, err := c.Account.Me(ctx)
		if err != nil {
			return account{}, err
		}
		state, err := c.Account.State(ctx)
		return account{me, state}, err
	})
}

func (p *profile) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.Result[account]:
		if ok, failed := msg.Accept(p.id, &p.load); !ok {
			return failed
		}
		p.me, p.state = msg.Value.me, msg.Value.state
	case changedMsg:
		return p.fetch()
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, keyEdit()) && p.me != nil:
			return common.Push(newProfileForm(p.ctx, p.me))
		case key.Matches(msg, keyPassword()):
			return common.Push(newPasswordForm(p.ctx))
		}
		p.pager.Update(msg)
	default:
		p.pager.Update(msg)
	}
	return nil
}

func (p *profile) lines() []string {
	st := p.ctx.Styles
	row := func(label, value string) string { return st.Label.Render(fmt.Sprintf("%-12s", label)) + value }
	yes := func(b bool, on, off string) string {
		if b {
			return st.Success.Render(on)
		}
		return st.Warning.Render(off)
	}
	me, s := p.me, p.state
	name := st.Bold.Render(text.OneLine(me.Login))
	if me.FullName != "" {
		name += " (" + text.OneLine(me.FullName) + ")"
	}
	invited := "—"
	if s.InvitedBy != "" {
		invited = text.OneLine(s.InvitedBy)
	}
	activated := "—"
	if !s.ActivatedAt.IsZero() {
		activated = s.ActivatedAt.UTC().Format("2006-01-02")
	}
	lines := []string{name, "",
		row("Email", text.OneLine(me.Email)),
		row("Role", text.OneLine(s.Role)),
		row("Two-factor", yes(s.TwoFAEnabled, "on", "off (→ Two-factor sets it up)")),
		row("SSH key", yes(s.SSHKeyAdded, "added", "none yet (→ SSH keys adds one)")),
		row("Invited by", invited),
		row("Activated", activated),
		"",
	}
	if set, err := p.ctx.Settings(); err == nil {
		lines = append(lines,
			row("Profile", text.OneLine(set.Profile)+st.Dim.Render(profileSource(p.ctx.Source)+" · P switches")),
			row("Service", text.OneLine(set.BaseURL)),
			row("Agent", orNone(st, config.Origin(set.AgentURL))),
			row("Registry", orNone(st, config.Origin(set.RegistryURL))+registryUser(st, set)))
	}
	return lines
}

// profileSource says where the profile was chosen, unless by default.
func profileSource(src config.Source) string {
	switch src {
	case config.FromFlag:
		return " (--profile)"
	case config.FromEnv:
		return " (FORGE_PROFILE)"
	case config.FromFile:
		return " (the current profile)"
	case common.FromSwitcher:
		return " (chosen with P for this session)"
	}
	return ""
}

func orNone(st *common.Styles, s string) string {
	if s == "" {
		return st.Dim.Render("not configured")
	}
	return text.OneLine(s)
}

func registryUser(st *common.Styles, s *config.Settings) string {
	if s.RegistryUser == "" || s.RegistryPassword == "" {
		return st.Dim.Render(" · not logged in (forge image login)")
	}
	return st.Dim.Render(" · as " + text.OneLine(s.RegistryUser))
}

func (p *profile) SetSize(width, height int) {
	p.width, p.height = width, height
	p.pager.SetSize(width, height)
}

func (p *profile) View() string {
	if !p.load.Done {
		return p.ctx.Placeholder(&p.load, "your account", p.width, p.height)
	}
	p.pager.SetLines(p.lines())
	return common.Pad(p.pager.View(), p.width, p.height)
}

func (p *profile) Title() string   { return "Profile" }
func (p *profile) Animating() bool { return p.load.Busy }

// The profile's own keys, built when asked for (never at package init).
func keyEdit() key.Binding     { return common.Binding("e", "edit profile", "e") }
func keyPassword() key.Binding { return common.Binding("p", "new password", "p") }

func (p *profile) ShortHelp() []key.Binding {
	k := p.ctx.Keys
	return []key.Binding{keyEdit(), keyPassword(), k.Refresh, k.Profiles}
}

func (p *profile) FullHelp() [][]key.Binding {
	k := p.ctx.Keys
	return [][]key.Binding{{k.Up, k.Down, keyEdit(), keyPassword(), k.Refresh, k.Profiles}}
}
