package common

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/chat"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/internal/markdown"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/regclient"
)

// Context is what all views share, passed by pointer: the terminal's size
// and colours, the styles and keys built from them, the clients of the
// three interfaces for the active profile, and the current repository.
//
// Fields are read and written on the program's goroutine only (in Update
// and View). Commands, which run elsewhere, capture what they need before
// they start; the client getters are safe from any goroutine.
type Context struct {
	// Ctx is cancelled when the program ends, stopping requests in flight.
	Ctx context.Context

	// Factory is the active profile's: its clients and settings.
	Factory *cmdutil.Factory
	// Profile names the active profile; User is the account's login as
	// the profile knows it ("" before login).
	Profile string
	User    string
	// Source says how the profile was chosen: as forge started (flag,
	// environment, configuration file, default), or with the profile
	// switcher (FromSwitcher). A login keeps it.
	Source config.Source

	// Repo is the current repository (zero when none is chosen yet).
	Repo client.RepoName

	// Width and Height are the terminal's size.
	Width, Height int
	// Color is false with NO_COLOR (or a terminal without colour); Dark
	// says the background is dark, from the terminal's answer.
	Color, Dark bool
	// Theme is tui.theme: auto, dark, light or high-contrast.
	Theme  string
	Styles *Styles
	Keys   *KeyMap
	// Filters are tui.filters: per list, keys that type a filter.
	Filters map[string]map[string]string

	// Now is the clock relative times are computed from.
	Now func() time.Time
	// Spinner is the spinner's current frame, drawn by loading views.
	Spinner string
	// Keep holds the account's unsent drafts and chat across launches,
	// on this service (SetAccount).
	Keep *Keep
	// account is the login the Keep is for ("" while unknown), keptOn
	// the service's origin.
	account, keptOn string

	ids int
	// inSight reports whether a component is the one in view (the
	// program's; nil: every component is, as in a view's own tests).
	inSight func(Component) bool
	// inflight counts the requests sent (Fetch) whose answer the program
	// has not had yet.
	inflight atomic.Int64

	mu       sync.Mutex
	rest     *client.Client
	restErr  error
	agent    *chat.Client
	agentErr error
	reg      *regclient.Client
	regErr   error
}

// NewContext returns a context over a profile's factory, styled for a
// dark background until the terminal says otherwise.
func NewContext(ctx context.Context, f *cmdutil.Factory, color bool) *Context {
	c := &Context{Ctx: ctx, Factory: f, Color: color, Dark: true, Now: time.Now, Keys: NewKeyMap()}
	c.Styles = NewStyles(color, true)
	if s, err := f.Settings(); err == nil {
		c.Profile, c.Source = s.Profile, s.ProfileSource
		c.SetAccount(s.User)
		AdoptProfileKeep(f.CacheDir(), s.Profile, s.BaseURL, c.Keep)
		if c.User == "" {
			c.User = s.RegistryUser
		}
	}
	if c.Keep == nil {
		c.Keep = &Keep{}
	}
	return c
}

// Account is the login of the REST account the views work as; "" while
// unknown (a token from FORGE_TOKEN, until the service says whose).
func (c *Context) Account() string { return c.account }

// SetAccount makes login the account the views work as, and opens its
// keep; it reports whether the account (or the service) is another than
// before: what the views hold is someone else's.
func (c *Context) SetAccount(login string) (changed bool) {
	origin := ""
	if s, err := c.Settings(); err == nil {
		origin = config.Origin(s.BaseURL)
	}
	if login != "" {
		c.User = login
	}
	if login == c.account && origin == c.keptOn && c.Keep != nil {
		return false
	}
	c.account, c.keptOn = login, origin
	c.Keep = OpenKeep(c.Factory.CacheDir(), login, origin)
	return true
}

// FromSwitcher is the Source of a profile chosen with P for the session.
const FromSwitcher config.Source = "profile switcher"

// SetTheme rebuilds the styles for colour and the terminal's background;
// a dark or light theme overrides what the terminal says, and without
// colour (NO_COLOR) every theme is attributes only.
func (c *Context) SetTheme(color, dark bool) {
	switch c.Theme {
	case ThemeDark:
		dark = true
	case ThemeLight:
		dark = false
	}
	c.Color, c.Dark = color, dark
	if c.Theme == ThemeHighContrast && color {
		c.Styles = HighContrastStyles(dark)
		return
	}
	c.Styles = NewStyles(color, dark)
}

// InFlight reports whether a request of this context's views awaits its
// answer: a frame drawn when none does shows all they asked for.
func (c *Context) InFlight() bool { return c.inflight.Load() > 0 }

// InSight reports whether c is the view in sight: a view that polls
// (the CI runs) asks nothing while its tab is hidden, and reads again
// when it is shown.
func (c *Context) InSight(x Component) bool { return c.inSight == nil || c.inSight(x) }

// SetInSight makes in the program's answer to InSight.
func (c *Context) SetInSight(in func(Component) bool) { c.inSight = in }

// NewID returns an identifier no other component of this context has:
// results of a component's commands carry it, so a component knows its
// own answers.
func (c *Context) NewID() int {
	c.ids++
	return c.ids
}

// REST is the REST client of the active profile, built once. Not being
// logged in is an error that says how to log in.
func (c *Context) REST() (*client.Client, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rest == nil && c.restErr == nil {
		c.rest, c.restErr = c.Factory.REST()
	}
	return c.rest, c.restErr
}

// Agent is the agent chat client of the active profile, built once.
func (c *Context) Agent() (*chat.Client, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.agent == nil && c.agentErr == nil {
		c.agent, c.agentErr = c.Factory.Agent()
	}
	return c.agent, c.agentErr
}

// Registry is the container registry client of the active profile, built
// once.
func (c *Context) Registry() (*regclient.Client, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.reg == nil && c.regErr == nil {
		c.reg, c.regErr = c.Factory.Registry()
	}
	return c.reg, c.regErr
}

// Reload puts another factory of the same profile in place — the
// configuration read again after a login, or after another shell's —
// and drops the clients built from the old one, so every view's next
// request uses the new credentials. rest, when not nil, is the REST
// client to use instead of the factory's (a token from the TUI's login
// form, which an environment variable would hide from the factory).
func (c *Context) Reload(f *cmdutil.Factory, rest *client.Client) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.Factory = f
	c.rest, c.restErr = rest, nil
	c.agent, c.agentErr = nil, nil
	c.reg, c.regErr = nil, nil
}

// Settings are the active profile's resolved settings.
func (c *Context) Settings() (*config.Settings, error) { return c.Factory.Settings() }

// Markdown renders a markdown document for the width, in the context's
// colours, as lines.
func (c *Context) Markdown(src string, width int) []string {
	return text.Lines(markdown.Render(src, markdown.Options{Width: width, Color: c.Color, Dark: c.Dark}))
}

// Derive returns a context for another profile's factory: the same
// terminal, theme, keys and clock, no current repository, and identifiers
// that go on from this one's, so answers to the old views' requests can
// never be taken for the new views'.
func (c *Context) Derive(f *cmdutil.Factory) *Context {
	n := NewContext(c.Ctx, f, c.Color)
	n.Width, n.Height = c.Width, c.Height
	n.Dark, n.Styles, n.Keys, n.Theme, n.Filters = c.Dark, c.Styles, c.Keys, c.Theme, c.Filters
	n.Now, n.Spinner, n.ids, n.inSight = c.Now, c.Spinner, c.ids, c.inSight
	return n
}
