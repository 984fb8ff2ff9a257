package tui

import (
	"context"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/frame"
	"github.com/forgehq/forge/tui/login"
	"github.com/forgehq/forge/tui/profiles"
	"github.com/forgehq/forge/tui/stack"
	"github.com/forgehq/forge/tui/statusbar"
)

// repoFoundMsg is the repository of the directory forge tui started in.
type repoFoundMsg struct{ repo client.RepoName }

// whoMsg is the account's login, when the profile does not name it (a
// token from FORGE_TOKEN).
type whoMsg struct {
	ctx   *common.Context
	login string
}

// App is the program's model. It routes messages: to the tabs' stacks
// of components (package stack), the status line (statusbar) and the
// overlays (help, login form, profile switcher), and has the frame
// (frame) drawn around the view in sight.
type App struct {
	ctx   *common.Context
	opts  Options
	stack *stack.Stack
	bar   *statusbar.Bar
	frame *frame.Frame
	ready bool // the first window size has arrived

	showHelp bool
	// helpOffset is how far the help box is scrolled.
	helpOffset int
	switcher   *profiles.Switcher
	login      *login.Form
	// loginOffered is the context the login form last opened by itself
	// for: once per profile, then L.
	loginOffered *common.Context

	typed      bool // a key or a paste has come (see account)
	statusRows int  // rows a long notice takes beyond the status line's own
	noticeTab  int  // 1 + the tab whose notice is being handled; 0: none

	// keptTold is the keep whose kept notice was said.
	keptTold *common.Keep

	spin    spinner.Model
	ticking bool
	full    bool // the active view was full screen at the last layout
}

// Init asks the terminal for its background colour, opens the first tab
// and, without -R, looks for the repository of the current directory,
// else the last one opened.
func (a *App) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor, a.visit(a.stack.Active()), a.whoami()}
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
	if a.ctx.Account() != "" {
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
	common.Answered(msg)
	if a.bar.Update(msg) {
		return nil
	}
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
		a.frame.Restyle(a.ctx)
		return a.broadcast(common.ThemeMsg{})
	case tea.ColorProfileMsg:
		color := a.opts.Color && msg.Profile > colorprofile.Ascii
		if color != a.ctx.Color {
			a.ctx.SetTheme(color, a.ctx.Dark)
			a.frame.Restyle(a.ctx)
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
	case common.StatusMsg:
		if msg.Unauthorized {
			return a.unauthorized(msg)
		}
		return a.setStatus(msg)
	case login.DoneMsg:
		return a.loggedIn(msg)
	case common.TokenChangedMsg:
		return a.tokenChanged(msg)
	case login.CloseMsg:
		a.login = nil
	case credsMsg:
		return a.credsRead(msg)
	case common.PushMsg:
		return a.fromActive(a.stack.Push(msg.C))
	case common.CloseMsg:
		a.stack.Close(msg.C)
	case common.ReplaceMsg:
		tab, cmd := a.stack.Replace(msg.Old, msg.New)
		return statusbar.FromTab(tab, cmd)
	case common.RepoChosenMsg:
		return tea.Batch(a.chooseRepo(msg.Repo), rememberRepo(a.ctx, msg.Repo))
	case keptMsg:
		return a.keptSaid(msg)
	case whoMsg:
		if msg.ctx == a.ctx {
			return a.account(msg.login)
		}
	case statusbar.TabMsg:
		// Handled as any notice, but kept with the tab that made it.
		a.noticeTab = msg.Tab + 1
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
		a.typed = true
		return a.key(msg)
	case tea.MouseClickMsg:
		return a.click(msg)
	case tea.MouseWheelMsg:
		if !a.showHelp && a.switcher == nil && a.login == nil {
			return a.top().Update(msg)
		}
	case tea.PasteMsg:
		a.typed = true
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
	a.stack.Each(func(tab int, c common.Component) {
		cmds = append(cmds, statusbar.FromTab(tab, c.Update(msg)))
	})
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
	case a.bar.Asking():
		if a.bar.Answer(msg) {
			return tea.Quit
		}
		return nil
	case key.Matches(msg, k.ForceQuit):
		a.showHelp = false
		if i, ok := top.(common.Interrupter); ok && a.switcher == nil {
			if cmd, done := i.Interrupt(); done {
				return a.fromActive(cmd)
			}
		}
		return a.quit()
	case key.Matches(msg, k.Suspend):
		return tea.Suspend
	case a.showHelp:
		// Movement keys scroll a help taller than the terminal; any
		// other key closes it.
		if !a.scrollHelp(msg) {
			a.showHelp, a.helpOffset = false, 0
		}
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
		a.showHelp, a.helpOffset = true, 0
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
		if a.stack.Pop() {
			return a.shownAgain()
		}
	case key.Matches(msg, k.Refresh):
		if r, ok := top.(common.Refresher); ok {
			return a.refresh(r)
		}
	default:
		return a.toTop(msg)
	}
	return nil
}

// scrollHelp scrolls the help box by a movement key, when it is taller
// than the terminal; false for any other key.
func (a *App) scrollHelp(msg tea.KeyPressMsg) bool {
	last := frame.HelpScroll(a.ctx, a.top().FullHelp())
	if last == 0 {
		return false
	}
	k, page := a.ctx.Keys, max(a.ctx.Height-5, 1)
	switch {
	case key.Matches(msg, k.Down):
		a.helpOffset++
	case key.Matches(msg, k.Up):
		a.helpOffset--
	case key.Matches(msg, k.PageDown):
		a.helpOffset += page
	case key.Matches(msg, k.PageUp):
		a.helpOffset -= page
	case key.Matches(msg, k.Top):
		a.helpOffset = 0
	case key.Matches(msg, k.Bottom):
		a.helpOffset = last
	default:
		return false
	}
	a.helpOffset = min(max(a.helpOffset, 0), last)
	return true
}

// account makes login the account the views work as. Another account
// than the one they worked as (a login as carol on the profile alice
// used) starts every tab afresh on that account's keep: nothing of
// alice's shows.
//
// The account first known (the service said whose FORGE_TOKEN it is),
// the views open so far read what its keep holds: they start afresh too
// unless a key has reached them already (what they hold is the user's
// work, kept from then on in the account's keep) or the keep holds
// nothing for them to read.
func (a *App) account(login string) tea.Cmd {
	was := a.ctx.Account()
	if !a.ctx.SetAccount(login) || was == "" && (a.typed || len(a.ctx.Keep.Kept()) == 0) {
		return nil
	}
	a.stack.Reset(newTabs())
	if was != "" {
		a.bar.Reset()
	}
	var notice tea.Cmd
	if a.ready {
		notice = a.keptNotice()
	}
	return tea.Batch(a.visit(a.stack.Active()), notice)
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
		return keptMsg{keep: keep, text: "Kept from your last session: " + strings.Join(kept, ", ") + "."}
	}
}

// keptMsg is what the keep held as the program started, or as the
// account became known: said once per keep, however often it is asked.
type keptMsg struct {
	keep *common.Keep
	text string
}

// keptSaid says the notice of what keep held, unless it was said.
func (a *App) keptSaid(msg keptMsg) tea.Cmd {
	if msg.keep != a.ctx.Keep || a.keptTold == msg.keep {
		return nil
	}
	a.keptTold = msg.keep
	return a.setStatus(common.StatusMsg{Text: msg.text})
}

// toTop gives msg to the view in sight.
func (a *App) toTop(msg tea.Msg) tea.Cmd { return a.fromActive(a.top().Update(msg)) }

// fromActive makes cmd's notices the active tab's.
func (a *App) fromActive(cmd tea.Cmd) tea.Cmd { return statusbar.FromTab(a.stack.Active(), cmd) }

// quit ends the program, or first asks when a view holds something
// unsent: it is kept for the next launch, but the user should know.
func (a *App) quit() tea.Cmd {
	unsent := a.stack.Unsent()
	if len(unsent) == 0 {
		return tea.Quit
	}
	a.showHelp, a.switcher = false, nil
	a.bar.Ask(unsent)
	return nil
}

// visit opens tab i, making its first component on the first visit.
func (a *App) visit(i int) tea.Cmd { return statusbar.FromTab(i, a.stack.Visit(a.ctx, i)) }

func (a *App) switchTab(msg common.SwitchTabMsg) tea.Cmd {
	to := a.stack.Target(msg)
	if !a.stack.Switch(to) {
		return nil
	}
	cmd := a.visit(to)
	if f, ok := a.top().(common.Focuser); ok {
		f.Focus()
	}
	if cmd != nil {
		return cmd // opened just now: its first load is under way
	}
	return a.shownAgain()
}

// shownAgain reads again what the view coming back into sight shows (a
// tab shown again, a page closed over it): another session, another
// shell or the service may have changed it meanwhile, and a hidden view
// polls nothing.
func (a *App) shownAgain() tea.Cmd {
	if r, ok := a.top().(common.Refresher); ok {
		return a.fromActive(r.Refresh())
	}
	return nil
}

// ask opens the chat tab and hands it what to attach.
func (a *App) ask(msg common.AskAgentMsg) tea.Cmd {
	cmd := a.switchTab(common.SwitchTabMsg{Tab: tabChat})
	return tea.Batch(cmd, a.stack.Tab(tabChat).Views()[0].Update(msg))
}

// chooseRepo makes repo the current repository: the Issues and CI tabs
// start afresh on it.
func (a *App) chooseRepo(repo client.RepoName) tea.Cmd {
	if repo == a.ctx.Repo {
		return nil
	}
	a.ctx.Repo = repo
	return a.fromActive(a.stack.ResetPerRepo(a.ctx))
}

// setStatus shows a notice on the tab that made it (noticeTab), else on
// the tab in sight.
func (a *App) setStatus(msg common.StatusMsg) tea.Cmd {
	i := a.noticeTab - 1
	if i < 0 || i >= len(a.stack.Tabs()) {
		i = a.stack.Active()
	}
	return a.bar.Set(i, msg)
}

// inSight reports whether c is in view: the top of the tab in sight, or
// the section it shows (a pull request's checks).
func (a *App) inSight(c common.Component) bool {
	top := a.top()
	if s, ok := top.(interface{ Active() common.Component }); ok && s.Active() == c {
		return true
	}
	return top == c
}

// top is the component in view.
func (a *App) top() common.Component { return a.stack.Top() }

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

// Busy reports whether a request of the views is in flight: the frame
// drawn when none is shows all they asked for, until the next key.
func (a *App) Busy() bool { return a.ctx.InFlight() }

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
	return a.ctx.Width, max(a.ctx.Height-frame.Chrome-a.statusRows, 1)
}

func (a *App) sizeOf(c common.Component) {
	w, h := a.area()
	c.SetSize(w, h)
}

// resize gives every open component the new size.
func (a *App) resize() {
	a.stack.Each(func(_ int, c common.Component) { a.sizeOf(c) })
	if a.switcher != nil {
		a.switcher.SetSize(a.ctx.Width, a.ctx.Height)
	}
	if a.login != nil {
		a.login.SetSize(a.ctx.Width, a.ctx.Height)
	}
	a.frame.SetWidth(a.ctx.Width)
}

// statusLines is the status line's rows for the tab in sight.
func (a *App) statusLines() []string {
	return a.bar.Lines(a.ctx, a.stack.Active(), a.ctx.Height-frame.Chrome)
}

// View draws the frame: a placeholder until the terminal's size is known,
// then the view in sight with the frame around it and the overlay open.
func (a *App) View() tea.View {
	v := tea.NewView("")
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	content := "forge: starting…"
	if a.ready {
		content = a.frame.Render(a.parts())
	}
	v.SetContent(content)
	return v
}

// parts gathers what the frame shows.
func (a *App) parts() frame.Parts {
	p := frame.Parts{Active: a.stack.Active(), Full: a.fullscreen()}
	if p.Full {
		p.View = a.top().View()
	} else {
		w, h := a.area()
		p.View = common.Pad(a.top().View(), w, h)
		p.Tabs = a.tabNames()
		p.Crumbs = a.crumbs()
		p.Status = a.statusLines()
		p.Keys, p.Always = a.helpKeys()
	}
	switch {
	case a.showHelp:
		p.Overlay = frame.HelpBox(a.ctx, a.top().Title(), a.top().FullHelp(), a.helpOffset)
	case a.login != nil:
		p.Overlay = a.login.View()
	case a.switcher != nil:
		p.Overlay = a.switcher.View()
	}
	return p
}

// crumbs is the path to the view in sight: the repository of a per-repo
// tab, then each open component's title.
func (a *App) crumbs() []string {
	t := a.stack.Tab(a.stack.Active())
	var parts []string
	if t.PerRepo && a.ctx.Repo.Name != "" {
		parts = append(parts, text.OneLine(a.ctx.Repo.String()))
	}
	for _, c := range t.Views() {
		parts = append(parts, c.Title())
	}
	return parts
}

// helpKeys are the keys of the help line, only those that work now: the
// overlay's, else the view's, and the program's unless the view takes
// typed text (q and ? are letters there).
func (a *App) helpKeys() (keys, always []key.Binding) {
	if a.login != nil {
		return a.login.KeyHelp(), nil
	}
	if a.switcher != nil {
		return a.switcher.KeyHelp(), nil
	}
	keys = a.top().ShortHelp()
	if c, ok := a.top().(common.Capturer); ok && c.Capturing() {
		return keys, nil
	}
	k := a.ctx.Keys
	return keys, []key.Binding{k.Help, k.Quit}
}
