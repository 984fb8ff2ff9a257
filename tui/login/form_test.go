package login_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/login"
	"github.com/forgehq/forge/tui/tuitest"
	"github.com/pquerna/otp/totp"
	"github.com/zalando/go-keyring"
)

var mockKeyring sync.Once

// form opens the login form for user of srv, as the TUI does when the
// service refuses the token, and arms it as a person does with enter.
func form(t *testing.T, srv *refserver.Server, user string) (*tuitest.Driver, *common.Context) {
	t.Helper()
	mockKeyring.Do(keyring.MockInit)
	ctx := tuitest.Context(t, srv, user)
	d := tuitest.Drive(t, component{login.New(ctx, "HTTP 401: the token was revoked")}, 80, 24)
	// A form the service's refusal opened waits for enter before it
	// takes keys (keys typed as it appears stay out of the password).
	d.Key("enter")
	return d, ctx
}

// component lets tuitest drive the form, which the App shows as an
// overlay rather than as a view of its own.
type component struct{ *login.Form }

func (component) Title() string              { return "Log in" }
func (c component) ShortHelp() []key.Binding { return c.KeyHelp() }
func (component) FullHelp() [][]key.Binding  { return nil }

// done waits for the form's DoneMsg.
func done(d *tuitest.Driver) login.DoneMsg {
	var got login.DoneMsg
	d.Until("the login to finish", func() bool {
		return d.Seen(func(m tea.Msg) bool {
			dm, ok := m.(login.DoneMsg)
			if ok {
				got = dm
			}
			return ok
		})
	})
	return got
}

// stored is the profile's token as the form left it ("" when the
// configuration was never written).
func stored(t *testing.T, ctx *common.Context, profile string) string {
	t.Helper()
	path, err := ctx.Factory.ConfigPath()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); os.IsNotExist(err) {
		return ""
	}
	cf, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if p := cf.Profile(profile); p != nil {
		return p.Token
	}
	return ""
}

// TestPasswordLogsIn: the username is filled in, the password logs in, and
// the new token, which works, is stored in the profile.
func TestPasswordLogsIn(t *testing.T) {
	t.Parallel()
	srv := refservertest.DemoWorld(t)
	d, ctx := form(t, srv, "alice")
	view := d.View()
	for _, want := range []string{"Log in", "profile " + ctx.Profile, "HTTP 401: the token was revoked", "Username  alice"} {
		if !strings.Contains(view, want) {
			t.Errorf("the form lacks %q:\n%s", want, view)
		}
	}
	d.Type(refserver.DemoPassword)
	d.Key("enter")
	got := done(d)
	if got.User != "alice" || got.Profile != ctx.Profile {
		t.Errorf("DoneMsg %+v", got)
	}
	if me, err := got.Client.Account.Me(context.Background()); err != nil || me.Login != "alice" {
		t.Errorf("the new client: %v %v", me, err)
	}
	tok := stored(t, ctx, ctx.Profile)
	c, _ := client.New(srv.BaseURL(), tok)
	if _, err := c.Account.Me(context.Background()); tok == "" || err != nil {
		t.Errorf("the stored token %q does not work: %v", tok, err)
	}
	// FORGE_TOKEN (set in the test's environment) would hide it.
	if strings.Join(got.Notes, "\n") != "FORGE_TOKEN is set and overrides the stored token outside this session" {
		t.Errorf("notes %q", got.Notes)
	}
}

// TestRefusedPasswordStoresNothing: a wrong or missing password is said
// in the form, the password typed is gone, and nothing is stored.
func TestRefusedPasswordStoresNothing(t *testing.T) {
	t.Parallel()
	srv := refservertest.DemoWorld(t)
	d, ctx := form(t, srv, "alice")
	d.Key("enter")
	d.UntilView("✗ Type the password first.")
	d.Type("not-the-password")
	d.Key("enter")
	view := d.UntilView("✗ login to " + srv.BaseURL())
	if strings.Contains(view, "••••") {
		t.Errorf("the refused password is still in the field:\n%s", view)
	}
	if tok := stored(t, ctx, ctx.Profile); tok != "" {
		t.Errorf("a refused login stored %q", tok)
	}
	if d.Seen(func(m tea.Msg) bool { _, ok := m.(login.DoneMsg); return ok }) {
		t.Error("a refused login finished")
	}
}

// TestTwoFactorCode: the code step follows the password; a malformed code
// is refused in the form, three wrong ones go back to the password, and
// the right one logs in.
func TestTwoFactorCode(t *testing.T) {
	t.Parallel()
	srv := refservertest.DemoWorld(t)
	secret, err := srv.EnableTwoFA("bob")
	if err != nil {
		t.Fatal(err)
	}
	d, _ := form(t, srv, "bob")
	password := func() {
		d.Type(refserver.DemoPassword)
		d.Key("enter")
		d.UntilView("This account has two-factor authentication on.", "Two-factor code")
	}
	password()
	d.Type("12")
	d.Key("enter")
	d.UntilView(`"12" is not a two-factor`)
	for i := range 3 {
		d.Type("000000")
		d.Key("enter")
		if i < 2 {
			d.UntilView("✗ the two-factor code was not accepted")
		}
	}
	d.UntilView("Username  bob", "Password")
	password()
	// The code of the server's clock, the demo world's fixed one.
	code, err := totp.GenerateCode(secret, refservertest.Now)
	if err != nil {
		t.Fatal(err)
	}
	d.Type(code)
	d.Key("enter")
	if got := done(d); got.User != "bob" {
		t.Errorf("DoneMsg %+v", got)
	}
}

// TestEscCloses: esc closes the form at any step.
func TestEscCloses(t *testing.T) {
	t.Parallel()
	srv := refservertest.DemoWorld(t)
	if _, err := srv.EnableTwoFA("bob"); err != nil {
		t.Fatal(err)
	}
	d, _ := form(t, srv, "bob")
	d.Type(refserver.DemoPassword)
	d.Key("enter")
	d.UntilView("Two-factor code")
	d.Key("esc")
	d.Until("CloseMsg", func() bool {
		return d.Seen(func(m tea.Msg) bool { _, ok := m.(login.CloseMsg); return ok })
	})
}
