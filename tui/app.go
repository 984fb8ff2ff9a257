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

type clearStatusMsg struct{ tab, seq int }

// status is a tab's notice or error.
type status struct {
	text string
	err  bool
	seq  int
}

// tabStatusMsg is a notice of the views of one tab: it stays with that
// tab (a "Cancelled." from Images is not shown on Chat).
type tabStatusMsg struct {
	tab int
	common.StatusMsg
}

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

	statusSeq  int
	statusRows int // rows a long notice takes beyond the status line's own
	noticeTab  int // 1 + the tab whose notice is being handled; 0: none
	// quitAsk is the question asked before quitting with something
	// unsent; "" when none is asked.
	quitAsk string

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
		first := !a.ready
		a.ready = true
		a.resize()
		if first {
			return a.keptNotice()
		}
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
		if msg.tab < len(a.tabs) && msg.seq == a.tabs[msg.tab].status.seq {
			a.tabs[msg.tab].status = status{}
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
	case tabStatusMsg:
		// Handled as any notice, but kept with the tab that made it.
		a.noticeTab = msg.tab + 1
		defer func() { a.noticeTab = 0 }()
		return a.update(msg.StatusMsg)
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
	for i, t := range a.tabs {
		for _, c := range t.stack {
			cmds = append(cmds, fromTab(i, c.Update(msg)))
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
	top := a.top()
	switch {
	case a.quitAsk != "":
		return a.answerQuit(msg)
	case key.Matches(msg, k.ForceQuit):
		a.showHelp = false
		if i, ok := top.(common.Interrupter); ok && a.switcher == nil {
			if cmd, done := i.Interrupt(); done {
				return fromTab(a.active, cmd)
			}
		}
		return a.quit()
	case key.Matches(msg, k.Suspend):
		return tea.Suspend
	case a.showHelp:
		// Any key closes the help.
		a.showHelp = false
		return nil
	case a.login != nil:
		return a.login.Update(msg)
	case a.switcher != nil:
		return a.switcher.Update(msg)
	}
	if c, ok := top.(common.Capturer); ok && c.Capturing() {
		return a.toTop(msg)
	}
	if cmd, ok := a.linkKey(msg); ok {
		return cmd
	}
	switch {
	case key.Matches(msg, k.Quit):
		return a.quit()
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
			return a.toTop(msg)
		}
		a.pop()
	case key.Matches(msg, k.Refresh):
		if r, ok := top.(common.Refresher); ok {
			return a.refresh(r)
		}
	default:
		return a.toTop(msg)
	}
	return nil
}

// keptNotice says, as the program starts, what the last launch left
// unsent and the keep holds, so that no draft is forgotten on disk.
func (a *App) keptNotice() tea.Cmd {
	keep := a.ctx.Keep
	return func() tea.Msg {
		kept := keep.Kept()
		if len(kept) == 0 {
			return nil
		}
		return common.StatusMsg{Text: "Kept from your last session: " + strings.Join(kept, ", ") + "."}
	}
}

// toTop gives msg to the view in sight.
func (a *App) toTop(msg tea.Msg) tea.Cmd { return fromTab(a.active, a.top().Update(msg)) }

// fromTab makes the notices cmd produces belong to tab i, however deep
// in batches they come.
func fromTab(i int, cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		switch m := cmd().(type) {
		case common.StatusMsg:
			return tabStatusMsg{tab: i, StatusMsg: m}
		case tea.BatchMsg:
			for j := range m {
				m[j] = fromTab(i, m[j])
			}
			return m
		default:
			return m
		}
	}
}

// quit ends the program, or first asks when a view holds something
// unsent: it is kept for the next launch, but the user should know.
func (a *App) quit() tea.Cmd {
	var unsent []string
	seen := map[string]bool{} // a form is held by its list as well as open
	for _, t := range a.tabs {
		for _, c := range t.stack {
			if u, ok := c.(common.Unsent); ok {
				if s := u.Unsent(); s != "" && !seen[s] {
					seen[s] = true
					unsent = append(unsent, s)
				}
			}
		}
	}
	if len(unsent) == 0 {
		return tea.Quit
	}
	a.showHelp, a.switcher = false, nil
	a.quitAsk = "Quit? Kept for your next forge tui: " + strings.Join(unsent, ", ") + "."
	return nil
}

// answerQuit takes the answer to the quit question: y, q or Ctrl-C again
// quits, any other key stays.
func (a *App) answerQuit(msg tea.KeyPressMsg) tea.Cmd {
	a.quitAsk = ""
	switch msg.String() {
	case "y", "Y", "q", "ctrl+c":
		return tea.Quit
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
	return fromTab(i, c.Init())
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
	return fromTab(a.active, c.Init())
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
	for n, t := range a.tabs {
		for i, x := range t.stack {
			if x == old {
				t.stack = append(t.stack[:i], c)
				a.sizeOf(c)
				return fromTab(n, c.Init())
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

// setStatus shows a notice on the tab that made it (noticeTab), else on
// the tab in sight.
func (a *App) setStatus(msg common.StatusMsg) tea.Cmd {
	i := a.noticeTab - 1
	if i < 0 || i >= len(a.tabs) {
		i = a.active
	}
	a.statusSeq++
	// A notice often quotes the server (a name, an error): one line, sanitized.
	a.tabs[i].status = status{text: text.OneLine(msg.Text), err: msg.Err, seq: a.statusSeq}
	seq, d := a.statusSeq, statusFor
	if msg.Err {
		d *= 2
	}
	return tea.Tick(d, func(time.Time) tea.Msg { return clearStatusMsg{i, seq} })
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
// screen, and every view when the status line takes more or fewer rows.
func (a *App) relayout() {
	if a.top() == nil || !a.ready {
		return
	}
	// A notice of one line takes the status line's own row: only a longer
	// one takes rows from the views.
	if extra := max(len(a.statusLines())-1, 0); extra != a.statusRows {
		a.statusRows = extra
		a.resize()
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
	return a.ctx.Width, max(a.ctx.Height-chrome-a.statusRows, 1)
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
			a.tabBar(), a.crumbs(), common.Pad(a.top().View(), w, vh), strings.Join(a.statusLines(), "\n"), a.helpLine(),
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

// statusLines is the active tab's notice, or the quit question, wrapped
// to the width: an error is shown whole, never cut mid-sentence (up to
// half the rows the views have).
func (a *App) statusLines() []string {
	s := a.tabs[a.active].status
	if s.text == "" && a.quitAsk == "" {
		return nil
	}
	st := a.ctx.Styles
	mark, style, msg := st.Notice.Render(" ✓ "), lipgloss.NewStyle(), s.text
	switch {
	case a.quitAsk != "":
		mark, style, msg = st.Warning.Render(" ? "), st.Warning, a.quitAsk+" y quits, any other key stays"
	case s.err:
		mark, style = st.Error.Render(" ✗ "), st.Error
	}
	w := max(a.ctx.Width-3, 1)
	lines := common.Wrap(msg, w)
	if most := max((a.ctx.Height-chrome)/2, 1); len(lines) > most {
		lines = lines[:most]
		lines[most-1] = ansi.Truncate(lines[most-1], w-1, "") + "…"
	}
	for i, l := range lines {
		lead := "   "
		if i == 0 {
			lead = mark
		}
		lines[i] = common.Fit(lead+style.Render(l), a.ctx.Width)
	}
	return lines
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
