package tui

import (
	"context"
	"strings"
	"sync"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/login"
	"github.com/forgehq/forge/tui/profiles"
)

// chrome is the rows the program draws around the active view: the tab
// bar and breadcrumb above, the status and help lines below.
const chrome = 4

// statusFor is how long a notice stays in the status line; errors stay
// twice as long.
const statusFor = 6 * time.Second

type clearStatusMsg struct{ seq int }

// repoFoundMsg is the repository of the directory forge tui started in.
type repoFoundMsg struct{ repo client.RepoName }

// whoMsg is the account's login, when the profile does not name it (a
// token from FORGE_TOKEN).
type whoMsg struct {
	ctx   *common.Context
	login string
}

// App is the program's model: the tabs, each a stack of components, and
// what is drawn around them.
type App struct {
	ctx      *common.Context
	opts     Options
	tabs     []*tab
	active   int
	previous int
	ready    bool // the first window size has arrived

	showHelp bool
	switcher *profiles.Switcher
	login    *login.Form
	// loginOffered is the context the login form last opened by itself
	// for: once per profile, then L.
	loginOffered *common.Context

	status    string
	statusErr bool
	statusSeq int

	spin    spinner.Model
	ticking bool
	help    help.Model
	full    bool // the active view was full screen at the last layout

	mu     sync.Mutex
	screen string // the last frame, for tests
}

// Init asks the terminal for its background colour, opens the first tab
// and, without -R, looks for the repository of the current directory,
// else the last one opened.
func (a *App) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor, a.visit(a.active), a.whoami()}
	if a.ctx.Repo.Name == "" {
		cmds = append(cmds, a.findRepo(a.opts.DetectRepo))
	}
	return tea.Batch(cmds...)
}

// findRepo looks for the repository to start with: detect's (the git
// remotes'), else the last one opened on this service.
func (a *App) findRepo(detect func(context.Context) (client.RepoName, error)) tea.Cmd {
	ctx, last := a.ctx.Ctx, lastRepo(a.ctx)
	return func() tea.Msg {
		if detect != nil {
			if r, err := detect(ctx); err == nil && r.Name != "" {
				return repoFoundMsg{r}
			}
		}
		if r, ok := last(); ok {
			return repoFoundMsg{r}
		}
		return nil
	}
}

// whoami asks the service who the token belongs to, when the profile
// does not say.
func (a *App) whoami() tea.Cmd {
	if a.ctx.User != "" {
		return nil
	}
	c, err := a.ctx.REST()
	if err != nil {
		return nil
	}
	ctx := a.ctx
	return func() tea.Msg {
		me, err := c.Account.Me(ctx.Ctx)
		if err != nil {
			return nil
		}
		return whoMsg{ctx: ctx, login: me.Login}
	}
}

// Update handles a message and keeps the spinner turning while the view
// in sight waits for something.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := a.update(msg)
	a.relayout()
	return a, tea.Batch(cmd, a.animate())
}

func (a *App) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.ctx.Width, a.ctx.Height = msg.Width, msg.Height
		a.ready = true
		a.resize()
	case tea.BackgroundColorMsg:
		a.ctx.SetTheme(a.ctx.Color, msg.IsDark())
		a.styleHelp()
		return a.broadcast(common.ThemeMsg{})
	case tea.ColorProfileMsg:
		color := a.opts.Color && msg.Profile > colorprofile.Ascii
		if color != a.ctx.Color {
			a.ctx.SetTheme(color, a.ctx.Dark)
			a.styleHelp()
			return a.broadcast(common.ThemeMsg{})
		}
	case spinner.TickMsg:
		if !a.animating() {
			a.ticking = false
			return nil
		}
		var cmd tea.Cmd
		a.spin, cmd = a.spin.Update(msg)
		a.ctx.Spinner = a.spin.View()
		return cmd
	case clearStatusMsg:
		if msg.seq == a.statusSeq {
			a.status = ""
		}
	case common.StatusMsg:
		if msg.Unauthorized {
			return a.unauthorized(msg)
		}
		return a.setStatus(msg)
	case login.DoneMsg:
		return a.loggedIn(msg)
	case login.CloseMsg:
		a.login = nil
	case credsMsg:
		return a.credsRead(msg)
	case common.PushMsg:
		return a.push(msg.C)
	case common.CloseMsg:
		a.close(msg.C)
	case common.ReplaceMsg:
		return a.replace(msg.Old, msg.New)
	case common.RepoChosenMsg:
		return tea.Batch(a.chooseRepo(msg.Repo), rememberRepo(a.ctx, msg.Repo))
	case whoMsg:
		if msg.ctx == a.ctx {
			a.ctx.User = msg.login
		}
	case repoFoundMsg:
		if a.ctx.Repo.Name == "" {
			return a.chooseRepo(msg.repo)
		}
	case common.SwitchTabMsg:
		return a.switchTab(msg)
	case common.AskAgentMsg:
		return a.ask(msg)
	case common.SwitchProfileMsg:
		return a.switchProfile(msg)
	case profiles.CloseMsg:
		a.switcher = nil
	case tea.KeyPressMsg:
		return a.key(msg)
	case tea.MouseWheelMsg:
		if !a.showHelp && a.switcher == nil && a.login == nil {
			return a.top().Update(msg)
		}
	case tea.PasteMsg:
		if a.login != nil {
			return a.login.Update(msg)
		}
		if a.switcher != nil {
			return a.switcher.Update(msg)
		}
		return a.top().Update(msg)
	default:
		return a.broadcast(msg)
	}
	return nil
}

// broadcast gives a message to every open component: answers to requests
// find the component that asked, notices reach every view they concern.
func (a *App) broadcast(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	for _, t := range a.tabs {
		for _, c := range t.stack {
			cmds = append(cmds, c.Update(msg))
		}
	}
	if a.switcher != nil {
		cmds = append(cmds, a.switcher.Update(msg))
	}
	if a.login != nil {
		cmds = append(cmds, a.login.Update(msg))
	}
	return tea.Batch(cmds...)
}

func (a *App) key(msg tea.KeyPressMsg) tea.Cmd {
	k := a.ctx.Keys
	switch {
	case key.Matches(msg, k.ForceQuit):
		return tea.Quit
	case a.showHelp:
		// Any key closes the help.
		a.showHelp = false
		return nil
	case a.login != nil:
		return a.login.Update(msg)
	case a.switcher != nil:
		return a.switcher.Update(msg)
	}
	top := a.top()
	if c, ok := top.(common.Capturer); ok && c.Capturing() {
		return top.Update(msg)
	}
	switch {
	case key.Matches(msg, k.Quit):
		return tea.Quit
	case key.Matches(msg, k.Help):
		a.showHelp = true
	case key.Matches(msg, k.Profiles):
		return a.openSwitcher()
	case key.Matches(msg, k.Login):
		return a.openLogin("")
	case key.Matches(msg, k.NextTab):
		return a.switchTab(common.SwitchTabMsg{Delta: 1})
	case key.Matches(msg, k.PrevTab):
		return a.switchTab(common.SwitchTabMsg{Delta: -1})
	case key.Matches(msg, k.GotoTab):
		return a.switchTab(common.SwitchTabMsg{Tab: int(msg.Code - '1')})
	case key.Matches(msg, k.Back):
		if b, ok := top.(common.Backer); ok && b.CanGoBack() {
			return top.Update(msg)
		}
		a.pop()
	case key.Matches(msg, k.Refresh):
		if r, ok := top.(common.Refresher); ok {
			return a.refresh(r)
		}
	default:
		return top.Update(msg)
	}
	return nil
}

// visit opens tab i, making its first component on the first visit.
func (a *App) visit(i int) tea.Cmd {
	t := a.tabs[i]
	if len(t.stack) > 0 {
		return nil
	}
	c := t.root(a.ctx)
	t.stack = []common.Component{c}
	a.sizeOf(c)
	return c.Init()
}

func (a *App) switchTab(msg common.SwitchTabMsg) tea.Cmd {
	to := msg.Tab
	switch {
	case msg.Back:
		to = a.previous
	case msg.Delta != 0:
		to = (a.active + msg.Delta + len(a.tabs)) % len(a.tabs)
	}
	if to < 0 || to >= len(a.tabs) || to == a.active {
		return nil
	}
	a.previous, a.active = a.active, to
	return a.visit(to)
}

// ask opens the chat tab and hands it what to attach.
func (a *App) ask(msg common.AskAgentMsg) tea.Cmd {
	cmd := a.switchTab(common.SwitchTabMsg{Tab: tabChat})
	return tea.Batch(cmd, a.tabs[tabChat].stack[0].Update(msg))
}

func (a *App) push(c common.Component) tea.Cmd {
	t := a.tabs[a.active]
	t.stack = append(t.stack, c)
	a.sizeOf(c)
	return c.Init()
}

// close removes c and what was opened above it from its tab.
func (a *App) close(c common.Component) {
	for _, t := range a.tabs {
		for i, x := range t.stack {
			if x == c && i > 0 {
				t.stack = t.stack[:i]
				a.sizeOf(t.top())
				return
			}
		}
	}
}

// replace puts c in old's place, in whatever tab old is.
func (a *App) replace(old, c common.Component) tea.Cmd {
	for _, t := range a.tabs {
		for i, x := range t.stack {
			if x == old {
				t.stack = append(t.stack[:i], c)
				a.sizeOf(c)
				return c.Init()
			}
		}
	}
	return nil
}

func (a *App) pop() {
	t := a.tabs[a.active]
	if len(t.stack) > 1 {
		t.stack = t.stack[:len(t.stack)-1]
		a.sizeOf(t.top())
	}
}

// chooseRepo makes repo the current repository: the Issues and CI tabs
// start afresh on it.
func (a *App) chooseRepo(repo client.RepoName) tea.Cmd {
	if repo == a.ctx.Repo {
		return nil
	}
	a.ctx.Repo = repo
	var cmds []tea.Cmd
	for i, t := range a.tabs {
		if t.perRepo {
			t.stack = nil
			if i == a.active {
				cmds = append(cmds, a.visit(i))
			}
		}
	}
	return tea.Batch(cmds...)
}

func (a *App) setStatus(msg common.StatusMsg) tea.Cmd {
	// A notice often quotes the server (a name, an error): one line, sanitized.
	a.status, a.statusErr = text.OneLine(msg.Text), msg.Err
	a.statusSeq++
	seq, d := a.statusSeq, statusFor
	if msg.Err {
		d *= 2
	}
	return tea.Tick(d, func(time.Time) tea.Msg { return clearStatusMsg{seq} })
}

// top is the component in view.
func (a *App) top() common.Component { return a.tabs[a.active].top() }

// animating reports whether what is in view waits for something.
func (a *App) animating() bool {
	if a.switcher != nil && a.switcher.Animating() || a.login != nil && a.login.Animating() {
		return true
	}
	an, ok := a.top().(common.Animator)
	return ok && an.Animating()
}

func (a *App) animate() tea.Cmd {
	if a.ticking || !a.animating() {
		return nil
	}
	a.ticking = true
	return a.spin.Tick
}

// fullscreen reports whether the view in sight takes the whole terminal.
func (a *App) fullscreen() bool {
	f, ok := a.top().(common.Fullscreen)
	return ok && f.Fullscreen()
}

// relayout resizes the view in sight when it enters or leaves full
// screen.
func (a *App) relayout() {
	if a.top() == nil {
		return
	}
	if full := a.fullscreen(); full != a.full {
		a.full = full
		a.sizeOf(a.top())
	}
}

// area is the size a view gets.
func (a *App) area() (int, int) {
	if a.fullscreen() {
		return a.ctx.Width, a.ctx.Height
	}
	return a.ctx.Width, max(a.ctx.Height-chrome, 1)
}

func (a *App) sizeOf(c common.Component) {
	w, h := a.area()
	c.SetSize(w, h)
}

// resize gives every open component the new size.
func (a *App) resize() {
	for _, t := range a.tabs {
		for _, c := range t.stack {
			a.sizeOf(c)
		}
	}
	if a.switcher != nil {
		a.switcher.SetSize(a.ctx.Width, a.ctx.Height)
	}
	if a.login != nil {
		a.login.SetSize(a.ctx.Width, a.ctx.Height)
	}
	a.help.SetWidth(a.ctx.Width)
}

// View draws the frame: a placeholder until the terminal's size is known,
// then the tab bar, the breadcrumb, the view, the status and help lines,
// and the help or profile overlay on top. Every line is cut to the width,
// so nothing wraps when the terminal shrinks.
func (a *App) View() tea.View {
	v := tea.NewView("")
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	content := "forge: starting…"
	if a.ready {
		content = a.render()
	}
	a.mu.Lock()
	a.screen = content
	a.mu.Unlock()
	v.SetContent(content)
	return v
}

// Screen is the last frame drawn, for tests.
func (a *App) Screen() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.screen
}

func (a *App) render() string {
	w, h := a.ctx.Width, a.ctx.Height
	var frame string
	if a.fullscreen() {
		frame = a.top().View()
	} else {
		_, vh := a.area()
		frame = strings.Join([]string{
			a.tabBar(), a.crumbs(), common.Pad(a.top().View(), w, vh), a.statusLine(), a.helpLine(),
		}, "\n")
	}
	switch {
	case a.showHelp:
		frame = overlay(frame, a.helpBox(), w, h)
	case a.login != nil:
		frame = overlay(frame, a.login.View(), w, h)
	case a.switcher != nil:
		frame = overlay(frame, a.switcher.View(), w, h)
	}
	return common.Pad(frame, w, h)
}

// overlay draws box centred over frame.
func overlay(frame, box string, w, h int) string {
	bw, bh := lipgloss.Size(box)
	x, y := max((w-bw)/2, 0), max((h-bh)/2, 0)
	return lipgloss.NewCompositor(
		lipgloss.NewLayer(common.Pad(frame, w, h)),
		lipgloss.NewLayer(box).X(x).Y(y).Z(1),
	).Render()
}

// tabBar draws the tabs, the account and the profile. When the names do
// not fit, the other tabs shrink to their numbers.
func (a *App) tabBar() string {
	left := a.tabs1(false)
	if ansi.StringWidth(left) > a.ctx.Width {
		left = a.tabs1(true)
	}
	st := a.ctx.Styles
	who := a.ctx.Profile
	if a.ctx.User != "" {
		who = a.ctx.User + "@" + who
	}
	right := st.Dim.Render(text.OneLine(who) + " ")
	gap := a.ctx.Width - ansi.StringWidth(left) - ansi.StringWidth(right)
	if gap < 1 {
		return common.Fit(left, a.ctx.Width)
	}
	return left + strings.Repeat(" ", gap) + right
}

func (a *App) tabs1(short bool) string {
	st := a.ctx.Styles
	var b strings.Builder
	b.WriteString(st.Logo.Render(" forge "))
	for i, t := range a.tabs {
		label := string(rune('1'+i)) + " " + t.name
		switch {
		case i == a.active:
			b.WriteString(st.ActiveTab.Render(label))
		case short:
			b.WriteString(st.Tab.Render(string(rune('1' + i))))
		default:
			b.WriteString(st.Tab.Render(label))
		}
	}
	return b.String()
}

// crumbs is the path to the view in sight: the repository of a per-repo
// tab, then each open component's title. A long path loses its start.
func (a *App) crumbs() string {
	st := a.ctx.Styles
	t := a.tabs[a.active]
	var parts []string
	if t.perRepo && a.ctx.Repo.Name != "" {
		parts = append(parts, text.OneLine(a.ctx.Repo.String()))
	}
	for _, c := range t.stack {
		parts = append(parts, c.Title())
	}
	for i, p := range parts {
		if i == len(parts)-1 {
			parts[i] = st.Crumb.Render(p)
		} else {
			parts[i] = st.Dim.Render(p)
		}
	}
	line := " " + strings.Join(parts, st.CrumbSep.Render(" › "))
	if ansi.StringWidth(line) > a.ctx.Width {
		line = ansi.TruncateLeft(line, ansi.StringWidth(line)-a.ctx.Width+1, "…")
	}
	return common.Fit(line, a.ctx.Width)
}

func (a *App) statusLine() string {
	st := a.ctx.Styles
	switch {
	case a.status == "":
		return ""
	case a.statusErr:
		return common.Fit(st.Error.Render(" ✗ "+a.status), a.ctx.Width)
	}
	return common.Fit(st.Notice.Render(" ✓ ")+a.status, a.ctx.Width)
}

func (a *App) helpLine() string {
	k := a.ctx.Keys
	if a.login != nil {
		return " " + a.help.ShortHelpView(a.login.KeyHelp())
	}
	if a.switcher != nil {
		return " " + a.help.ShortHelpView(a.switcher.KeyHelp())
	}
	keys := append(a.top().ShortHelp(), k.Help, k.Quit)
	return " " + a.help.ShortHelpView(keys)
}
