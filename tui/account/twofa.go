package account

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/qr"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
	rscqr "rsc.io/qr"
)

type setupMsg struct {
	owner int
	setup *client.TwoFactorSetup
	err   error
}

type codeMsg struct {
	owner   int
	on      bool // the state the code was for: true confirms, false disables
	already bool // the state held already (2FA was off)
	err     error
}

// sideColumn is the width the instructions need beside the QR code.
const sideColumn = 34

// twofa turns two-factor authentication on (s: the QR code to scan, drawn
// in the view, then the code the app shows) or off (d: a current code).
// At 80×24 the code needs nearly every row, so while it is shown the view
// takes the whole terminal.
type twofa struct {
	ctx    *common.Context
	id     int
	load   common.Load
	on     bool
	phase  string // "", "starting", "scan" (enrolling), "disable"
	setup  *client.TwoFactorSetup
	input  *components.Editor
	busy   bool
	err    string // the last error, shown in the view (the status line is hidden in full screen)
	width  int
	height int

	keySetup, keyDisable, keyConfirm, keyCancel key.Binding
}

func newTwoFA(ctx *common.Context) *twofa {
	t := &twofa{ctx: ctx, id: ctx.NewID(), input: components.NewEditor(ctx, false)}
	t.input.Prompt = "Code: "
	t.input.Placeholder = "6 digits from the app"
	t.input.Limit = 10
	t.keySetup = common.Binding("s", "set up two-factor", "s")
	t.keyDisable = common.Binding("d", "turn two-factor off", "d")
	t.keyConfirm = common.Binding("enter", "send the code", "enter")
	t.keyCancel = common.Binding("esc", "cancel", "esc")
	return t
}

func (t *twofa) Init() tea.Cmd    { return t.fetch() }
func (t *twofa) Refresh() tea.Cmd { return t.fetch() }

func (t *twofa) fetch() tea.Cmd {
	return common.LoadREST(t.ctx, &t.load, t.id, func(ctx context.Context, c *client.Client) (*client.UserState, error) {
		return c.Account.State(ctx)
	})
}

func (t *twofa) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.Result[*client.UserState]:
		if ok, failed := msg.Accept(t.id, &t.load); !ok {
			return failed
		}
		t.on = msg.Value.TwoFAEnabled
	case setupMsg:
		if msg.owner != t.id {
			return nil
		}
		t.busy = false
		if msg.err != nil {
			t.phase = ""
			return common.Error(msg.err)
		}
		t.setup, t.phase, t.err = msg.setup, "scan", ""
		t.input.Reset()
		t.input.Focus()
	case codeMsg:
		if msg.owner == t.id {
			return t.coded(msg)
		}
	case tea.KeyPressMsg:
		return t.key(msg)
	case tea.PasteMsg:
		if t.phase == "scan" || t.phase == "disable" {
			t.input.Update(msg)
		}
	}
	return nil
}

func (t *twofa) key(msg tea.KeyPressMsg) tea.Cmd {
	if t.phase == "scan" || t.phase == "disable" {
		switch msg.String() {
		case "esc":
			t.phase, t.err = "", ""
			t.input.Blur()
			return common.Status("Two-factor authentication is unchanged.")
		case "enter":
			return t.sendCode()
		}
		t.input.Update(msg)
		return nil
	}
	switch {
	case key.Matches(msg, t.keySetup) && !t.on && t.load.Done:
		return t.startSetup()
	case key.Matches(msg, t.keyDisable) && t.on:
		t.phase, t.err = "disable", ""
		t.input.Reset()
		t.input.Focus()
	}
	return nil
}

func (t *twofa) startSetup() tea.Cmd {
	c, err := t.ctx.REST()
	if err != nil {
		return common.Error(err)
	}
	t.phase, t.busy = "starting", true
	ctx, owner := t.ctx.Ctx, t.id
	return func() tea.Msg {
		s, err := c.Account.SetupTwoFactor(ctx)
		return setupMsg{owner: owner, setup: s, err: err}
	}
}

func (t *twofa) sendCode() tea.Cmd {
	code := strings.Join(strings.Fields(t.input.Value()), "")
	if len(code) != 6 || strings.Trim(code, "0123456789") != "" {
		t.err = "the code is the 6 digits your authenticator app shows"
		return nil
	}
	if t.busy {
		return nil
	}
	c, err := t.ctx.REST()
	if err != nil {
		return common.Error(err)
	}
	t.busy, t.err = true, ""
	ctx, owner, enrolling := t.ctx.Ctx, t.id, t.phase == "scan"
	return func() tea.Msg {
		if enrolling {
			return codeMsg{owner: owner, on: true, err: c.Account.ConfirmTwoFactor(ctx, code)}
		}
		already, err := c.Account.DisableTwoFactor(ctx, code)
		return codeMsg{owner: owner, on: false, already: already, err: err}
	}
}

func (t *twofa) coded(msg codeMsg) tea.Cmd {
	t.busy = false
	if msg.err != nil {
		// The code stays typed; a new one from the app can replace it.
		t.err = text.ErrorText(msg.err)
		return common.Error(msg.err)
	}
	t.on, t.phase, t.setup = msg.on, "", nil
	t.input.Reset()
	t.input.Blur()
	note := "Two-factor authentication is on; logins now ask for a code."
	if !msg.on {
		note = "Two-factor authentication is off."
	}
	if msg.already {
		note = "Two-factor authentication was already off."
	}
	return tea.Batch(common.Status(note), changed)
}

// drawQR draws the enrolment's QR code as large as fits: width cells and
// height rows at most. ok is false when even the smallest does not fit.
func (t *twofa) drawQR(width, height int) (lines []string, ok bool) {
	url := t.setup.OTPAuthURL
	for _, try := range []struct {
		level rscqr.Level
		quiet int
	}{{rscqr.M, 4}, {rscqr.M, 2}, {rscqr.L, 2}} {
		w, err := qr.Width(url, try.level, try.quiet)
		if err != nil || w > width || (w+1)/2 > height {
			continue
		}
		var b strings.Builder
		if qr.Write(&b, url, qr.Options{Color: t.ctx.Color, Invert: !t.ctx.Color && !t.ctx.Dark, MaxWidth: w}) != nil {
			return nil, false
		}
		return text.Lines(b.String()), true
	}
	return nil, false
}

// Fullscreen: the QR code takes the whole terminal while it is shown.
func (t *twofa) Fullscreen() bool {
	return t.phase == "scan" && t.setup != nil && t.setup.OTPAuthURL != ""
}

func (t *twofa) SetSize(width, height int) {
	t.width, t.height = width, height
	t.input.SetWidth(min(width, sideColumn))
}

func (t *twofa) View() string {
	st := t.ctx.Styles
	switch {
	case !t.load.Done:
		return t.ctx.Placeholder(&t.load, "the two-factor state", t.width, t.height)
	case t.phase == "scan":
		return t.scanView()
	case t.phase == "starting":
		return common.Pad(st.Accent.Render(t.ctx.Spinner)+" Starting the enrolment…", t.width, t.height)
	}
	var lines []string
	if t.on {
		lines = []string{st.Success.Render("● ") + st.Bold.Render("Two-factor authentication is on."), "",
			"Logins ask for a code from your authenticator app.", st.Dim.Render("d turns it off; it asks for a current code.")}
	} else {
		lines = []string{st.Warning.Render("○ ") + st.Bold.Render("Two-factor authentication is off."), "",
			"With it on, logins ask for a code from an authenticator app",
			"(Google Authenticator, Aegis, 1Password, ...).",
			st.Dim.Render("s sets it up: scan a QR code, then type the code the app shows.")}
	}
	if t.phase == "disable" {
		lines = append(lines, "", "To turn it off, type a current code:", t.input.View())
		lines = append(lines, t.errLine()...)
		lines = append(lines, st.Dim.Render("enter sends · esc cancels"))
	}
	return common.Pad(strings.Join(lines, "\n"), t.width, t.height)
}

func (t *twofa) errLine() []string {
	if t.err == "" {
		return nil
	}
	return []string{t.ctx.Styles.Error.Render("✗ ") + t.err}
}

// scanView lays out the QR code with, beside it (or below, on a narrow
// terminal), the secret to type instead and the code input.
func (t *twofa) scanView() string {
	st := t.ctx.Styles
	side := []string{st.BoxTitle.Render("Set up two-factor authentication"), "",
		"Scan the code with your", "authenticator app, or enter", "this secret by hand:", ""}
	secret := t.setup.GroupedSecret()
	for _, l := range strings.Split(ansi.Wrap(secret, sideColumn-2, " "), "\n") {
		side = append(side, "  "+st.Bold.Render(l))
	}
	if acct := t.setup.Account(); acct != "" {
		side = append(side, st.Dim.Render("  account "+text.OneLine(acct)))
	}
	side = append(side, "", "Then type the code it shows:", t.input.View())
	if t.err != "" {
		side = append(side, strings.Split(ansi.Wrap(st.Error.Render("✗ ")+t.err, sideColumn, " "), "\n")...)
	}
	if t.busy {
		side = append(side, st.Accent.Render(t.ctx.Spinner)+" Checking the code…")
	}
	side = append(side, "", st.Dim.Render("enter confirms · esc cancels"))

	if qrLines, ok := t.drawQR(t.width-sideColumn-1, t.height); ok {
		// Side by side: the code on the left, the rest beside it.
		out := make([]string, max(len(qrLines), len(side)))
		qw := ansi.StringWidth(qrLines[0])
		for i := range out {
			left := strings.Repeat(" ", qw)
			if i < len(qrLines) {
				left = qrLines[i]
			}
			right := ""
			if i < len(side) {
				right = side[i]
			}
			out[i] = left + " " + right
		}
		return common.Pad(strings.Join(out, "\n"), t.width, t.height)
	}
	if qrLines, ok := t.drawQR(t.width, t.height-len(side)); ok {
		return common.Pad(strings.Join(append(qrLines, side...), "\n"), t.width, t.height)
	}
	w, _ := qr.Width(t.setup.OTPAuthURL, rscqr.L, 2)
	note := st.Warning.Render(fmt.Sprintf("The QR code needs %d×%d cells; enlarge the terminal to see it.", w, (w+1)/2))
	return common.Pad(strings.Join(append([]string{note, ""}, side...), "\n"), t.width, t.height)
}

func (t *twofa) Title() string   { return "Two-factor" }
func (t *twofa) Capturing() bool { return t.phase == "scan" || t.phase == "disable" }
func (t *twofa) Animating() bool { return t.load.Busy || t.busy }

func (t *twofa) ShortHelp() []key.Binding {
	switch {
	case t.phase == "scan" || t.phase == "disable":
		return []key.Binding{t.keyConfirm, t.keyCancel}
	case t.on:
		return []key.Binding{t.keyDisable, t.ctx.Keys.Refresh}
	}
	return []key.Binding{t.keySetup, t.ctx.Keys.Refresh}
}

func (t *twofa) FullHelp() [][]key.Binding {
	return [][]key.Binding{{t.keySetup, t.keyDisable, t.keyConfirm, t.keyCancel, t.ctx.Keys.Refresh}}
}
