// Package login holds the TUI's login form: when the service refuses the
// token (a restarted server, a revoked token), the password — then the
// two-factor code, when the account asks for one — logs in again without
// leaving the program. It logs in and stores the token as `forge auth
// login` does (package authflow): the profile's token is replaced only
// after a fully successful login.
package login

import (
	"context"
	"errors"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/forgehq/forge/app/authflow"
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
)

// DoneMsg is a successful login: the token is stored in Profile (unless
// Err says why not) and Client uses it.
type DoneMsg struct {
	Profile string
	User    string
	Client  *client.Client
	// Notes are what the user should know (FORGE_TOKEN hides the stored
	// token; the token is kept in the file, not the keyring).
	Notes []string
}

// CloseMsg closes the form.
type CloseMsg struct{}

// codeAttempts is how many codes one password accepts, as in `forge
// auth login`; the reference server revokes a pending login after five.
const codeAttempts = 3

// Steps of the form.
const (
	stepPassword = iota
	stepCode
)

type startedMsg struct {
	owner   int
	attempt *authflow.Attempt
	err     error
}

type verifiedMsg struct {
	owner int
	err   error
}

type finishedMsg struct {
	owner int
	done  DoneMsg
	err   error
}

// Form asks for the username and password, then the two-factor code.
type Form struct {
	ctx     *common.Context
	id      int
	reason  string // why the form opened
	baseURL string
	profile string

	user, pass, code *components.Editor
	step             int
	wrong            int // codes refused in this attempt
	attempt          *authflow.Attempt
	busy             string // what is in flight
	cancel           context.CancelFunc
	failed           string // the last refusal, shown in the form
	armed            bool   // a field has had the keys (see arm)
	width, height    int
}

// New returns the form for the context's profile; reason says why it
// opened (the service's refusal).
func New(ctx *common.Context, reason string) *Form {
	f := &Form{ctx: ctx, id: ctx.NewID(), reason: reason, profile: ctx.Profile}
	if s, err := ctx.Settings(); err == nil {
		f.baseURL = s.BaseURL
	}
	f.user = components.NewEditor(ctx, false)
	f.user.Prompt = "Username  "
	f.user.SetValue(ctx.User)
	f.pass = components.NewEditor(ctx, false)
	f.pass.Prompt = "Password  "
	f.pass.Mask = "•"
	f.code = components.NewEditor(ctx, false)
	f.code.Prompt = "Two-factor code  "
	f.code.Placeholder = "the 6 digits your authenticator app shows"
	f.code.Limit = 12
	if reason == "" {
		f.arm()
	}
	return f
}

// arm puts the focus in the first field to type. A form that opened by
// itself (the service refused the token) waits for enter first: keys
// typed for the view below as it appeared must not go into the password.
func (f *Form) arm() {
	f.armed = true
	if f.ctx.User == "" {
		f.user.Focus()
	} else {
		f.pass.Focus()
	}
}

// Init starts nothing: the form waits for the password.
func (f *Form) Init() tea.Cmd { return nil }

// Update handles keys and the answers of the service.
func (f *Form) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case startedMsg:
		if msg.owner == f.id {
			return f.started(msg)
		}
	case verifiedMsg:
		if msg.owner == f.id {
			return f.verified(msg)
		}
	case finishedMsg:
		if msg.owner == f.id {
			f.busy = ""
			if msg.err != nil {
				f.failed = text.ErrorText(msg.err)
				f.restart()
				return nil
			}
			done := msg.done
			return func() tea.Msg { return done }
		}
	case tea.KeyPressMsg:
		return f.key(msg)
	case tea.PasteMsg:
		if e := f.focused(); e != nil && f.armed {
			e.Update(msg)
		}
	}
	return nil
}

func (f *Form) key(msg tea.KeyPressMsg) tea.Cmd {
	if msg.String() == "esc" {
		f.abandon()
		return func() tea.Msg { return CloseMsg{} }
	}
	if f.busy != "" {
		return nil
	}
	if !f.armed {
		if msg.String() == "enter" {
			f.arm()
		}
		return nil
	}
	switch msg.String() {
	case "tab", "shift+tab", "up", "down":
		if f.step == stepPassword {
			f.toggle()
		}
		return nil
	case "enter":
		return f.submit()
	}
	if e := f.focused(); e != nil {
		e.Update(msg)
	}
	return nil
}

// focused is the input that has the keys.
func (f *Form) focused() *components.Editor {
	for _, e := range []*components.Editor{f.user, f.pass, f.code} {
		if e.Focused() {
			return e
		}
	}
	return nil
}

func (f *Form) toggle() {
	if f.user.Focused() {
		f.user.Blur()
		f.pass.Focus()
	} else {
		f.pass.Blur()
		f.user.Focus()
	}
}

// submit goes to the next field, or sends what the step needs.
func (f *Form) submit() tea.Cmd {
	if f.step == stepCode {
		return f.sendCode()
	}
	user := strings.TrimSpace(f.user.Value())
	switch {
	case user == "":
		f.failed = "Type the username first."
		f.pass.Blur()
		f.user.Focus()
		return nil
	case f.user.Focused():
		f.toggle()
		return nil
	}
	password := f.pass.Value()
	if password == "" {
		f.failed = "Type the password first."
		return nil
	}
	fac := f.ctx.Factory
	if f.baseURL == "" {
		f.failed = "Profile " + f.profile + " names no service: run `forge auth login --base-url https://HOST/api/v2`."
		return nil
	}
	anon, err := fac.RESTClient(f.baseURL, "")
	if err != nil {
		f.failed = text.ErrorText(err)
		return nil
	}
	// The password is not kept once sent.
	f.pass.Reset()
	f.busy, f.failed = "Logging in…", ""
	// esc stops the login; a token issued meanwhile is revoked.
	ctx, owner := f.ctx.Ctx, f.id
	req, cancel := context.WithCancel(ctx)
	f.cancel = cancel
	return func() tea.Msg {
		a, err := authflow.Start(req, anon, user, password)
		if req.Err() != nil {
			if a != nil {
				a.Abandon(ctx)
			}
			return nil
		}
		return startedMsg{owner: owner, attempt: a, err: err}
	}
}

func (f *Form) started(msg startedMsg) tea.Cmd {
	f.busy = ""
	if msg.err != nil {
		f.failed = text.ErrorText(msg.err)
		return nil
	}
	f.attempt = msg.attempt
	if !msg.attempt.NeedsCode {
		return f.finish()
	}
	f.step, f.wrong = stepCode, 0
	f.user.Blur()
	f.pass.Blur()
	f.code.Focus()
	return nil
}

func (f *Form) sendCode() tea.Cmd {
	code, err := authflow.NormalizeCode(f.code.Value())
	if err != nil {
		// Checked here: a malformed code costs no attempt at the service.
		f.failed = text.ErrorText(err)
		return nil
	}
	f.busy, f.failed = "Checking the code…", ""
	a, ctx, owner := f.attempt, f.ctx.Ctx, f.id
	return func() tea.Msg { return verifiedMsg{owner: owner, err: a.Verify(ctx, code)} }
}

func (f *Form) verified(msg verifiedMsg) tea.Cmd {
	f.busy = ""
	f.code.Reset()
	if msg.err == nil {
		return f.finish()
	}
	f.failed = text.ErrorText(authflow.CodeError(msg.err))
	f.wrong++
	if authflow.CodesLocked(msg.err) != nil || !authflow.WrongCode(msg.err) || f.wrong == codeAttempts {
		// This attempt is over: start again from the password, as
		// `forge auth login` does after as many codes.
		f.restart()
	}
	return nil
}

// finish checks the token and stores it in the profile.
func (f *Form) finish() tea.Cmd {
	f.busy = "Storing the token…"
	a, fac, ctx, owner := f.attempt, f.ctx.Factory, f.ctx.Ctx, f.id
	profile, baseURL := f.profile, f.baseURL
	f.attempt = nil
	return func() tea.Msg {
		me, err := a.Finish(ctx)
		if err != nil {
			a.Abandon(ctx)
			return finishedMsg{owner: owner, err: err}
		}
		done, err := store(fac, profile, baseURL, a.Token, me.Login)
		if err != nil {
			a.Abandon(ctx)
			return finishedMsg{owner: owner, err: err}
		}
		return finishedMsg{owner: owner, done: done}
	}
}

// store keeps the token as `forge auth login` does (the OS keyring, else
// the file) and returns the client that uses it.
func store(fac *cmdutil.Factory, profile, baseURL, token, user string) (DoneMsg, error) {
	_, saved, err := authflow.Store(fac, profile, baseURL, token, user, false)
	if err != nil {
		return DoneMsg{}, errors.Join(errors.New("logged in, but the token was not stored"), err)
	}
	c, err := fac.RESTClient(baseURL, token)
	if err != nil {
		return DoneMsg{}, err
	}
	done := DoneMsg{Profile: profile, User: user, Client: c}
	if n := saved.PlainTextNotice(); n != "" {
		done.Notes = append(done.Notes, n)
	}
	if fac.Getenv("FORGE_TOKEN") != "" {
		done.Notes = append(done.Notes, "FORGE_TOKEN is set and overrides the stored token outside this session")
	}
	return done, nil
}

// restart goes back to the password step.
func (f *Form) restart() {
	f.abandon()
	f.step = stepPassword
	f.code.Blur()
	f.user.Blur()
	f.pass.Focus()
}

// abandon revokes the token of a login left half-way.
func (f *Form) abandon() {
	if f.cancel != nil {
		f.cancel()
		f.cancel = nil
	}
	if a := f.attempt; a != nil {
		f.attempt = nil
		ctx := f.ctx.Ctx
		go a.Abandon(ctx)
	}
}

// SetSize gives the form the terminal's size; it draws a box within.
func (f *Form) SetSize(width, height int) { f.width, f.height = width, height }

// View draws the box.
func (f *Form) View() string {
	st := f.ctx.Styles
	w := max(min(f.width-6, 70), 20)
	for _, e := range []*components.Editor{f.user, f.pass, f.code} {
		e.SetWidth(w)
	}
	var lines []string
	lines = append(lines, st.BoxTitle.Render("Log in")+st.Dim.Render(" · "+text.OneLine(config.Origin(f.baseURL))+" · profile "+text.OneLine(f.profile)))
	if f.reason != "" {
		// The service's whole refusal, wrapped: it often says what to do.
		reason := strings.Split(ansi.Wrap(text.OneLine(f.reason), w, " "), "\n")
		lines = append(lines, "")
		for _, l := range reason[:min(len(reason), 3)] {
			lines = append(lines, st.Warning.Render(common.Fit(l, w)))
		}
	}
	lines = append(lines, "")
	if f.step == stepCode {
		lines = append(lines, "This account has two-factor authentication on.", "", f.code.View())
	} else {
		lines = append(lines, f.user.View(), f.pass.View())
	}
	lines = append(lines, "")
	switch {
	case f.busy != "":
		lines = append(lines, st.Accent.Render(f.ctx.Spinner)+" "+f.busy)
	case f.failed != "":
		failed := strings.Split(ansi.Wrap("✗ "+text.OneLine(f.failed), w, " "), "\n")
		for _, l := range failed[:min(len(failed), 3)] {
			lines = append(lines, st.Failure.Render(common.Fit(l, w)))
		}
	case !f.armed:
		lines = append(lines, common.Fit(st.Prompt.Render("enter")+st.Dim.Render(" to type the password · esc closes"), w))
	default:
		lines = append(lines, common.Fit(st.Dim.Render("The new token replaces the one stored in the profile."), w))
	}
	body := strings.Join(lines, "\n")
	return st.Box.Render(common.Pad(body, w, len(lines)))
}

// Animating reports whether a request is in flight.
func (f *Form) Animating() bool { return f.busy != "" }

// KeyHelp lists the form's keys for the help line.
func (f *Form) KeyHelp() []key.Binding {
	send := common.Binding("enter", "log in", "enter")
	if !f.armed {
		return []key.Binding{common.Binding("enter", "type the password", "enter"), common.Binding("esc", "close", "esc")}
	}
	if f.step == stepCode {
		send = common.Binding("enter", "send the code", "enter")
	}
	keys := []key.Binding{send}
	if f.step == stepPassword {
		keys = append(keys, common.Binding("tab", "next field", "tab"))
	}
	return append(keys, common.Binding("esc", "close", "esc"))
}
