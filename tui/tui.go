// Package tui is forge's terminal UI, `forge tui`: repositories, issues,
// CI runs, container images, the agent chat and the account in one
// full-screen bubbletea program.
//
// The program is a stack of components per tab (package common defines
// the Component interface and the Context they share by pointer); each
// view lives in a package of its own — repos, issues, ci, images,
// chatview, account, profiles, login — built from the widgets in
// components. It
// uses the same clients as the commands (client, chat, regclient) through
// the Factory; every request runs in a tea.Cmd, and its answer comes back
// as a typed message naming the component that asked.
package tui

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/frame"
	"github.com/forgehq/forge/tui/profiles"
	"github.com/forgehq/forge/tui/stack"
	"github.com/forgehq/forge/tui/statusbar"
)

// Options configure the program.
type Options struct {
	// Factory is the active profile's.
	Factory *cmdutil.Factory
	// NewFactory makes the factory of another profile, for the switcher.
	NewFactory func(profile string) *cmdutil.Factory
	// Repo is the current repository to start with (-R); when zero,
	// DetectRepo is asked in the background (the git remotes here).
	Repo       client.RepoName
	DetectRepo func(context.Context) (client.RepoName, error)
	// Color allows colour (false with NO_COLOR).
	Color bool
	// Settings are the configuration's tui section (nil: the defaults).
	Settings *common.Settings
	// Tab is the tab to start on (0: Repos).
	Tab int
	// Now is the clock for relative times (nil: time.Now).
	Now func() time.Time
	// Spinner replaces the spinner's frames (tests draw one still frame).
	Spinner *spinner.Spinner
	// Notes, when set, is given the program's Send once it runs: the
	// clients' notices (written from their goroutines) reach the status
	// line through it.
	Notes interface{ SetSender(func(tea.Msg)) }
	// Input and Output replace the terminal (tests).
	Input  io.Reader
	Output io.Writer
	// ProgramOptions are added to the program's (tests).
	ProgramOptions []tea.ProgramOption
}

// New returns the program's model.
func New(ctx context.Context, o Options) *App {
	c := common.NewContext(ctx, o.Factory, o.Color)
	if o.Now != nil {
		c.Now = o.Now
	}
	c.Repo = o.Repo
	settings := o.Settings
	if settings == nil {
		settings = common.DefaultSettings()
	}
	settings.Apply(c)
	a := &App{ctx: c, opts: o, bar: statusbar.New(), frame: frame.New(c)}
	a.stack = stack.New(newTabs(), o.Tab, a.sizeOf)
	c.SetInSight(a.inSight)
	a.spin = spinner.New(spinner.WithSpinner(spinner.MiniDot))
	if o.Spinner != nil {
		a.spin = spinner.New(spinner.WithSpinner(*o.Spinner))
	}
	c.Spinner = a.spin.View()
	return a
}

// FrameRate is how often a frame the keys changed may reach the
// terminal: bubbletea draws on a ticker, not on input, so a key waits
// for the next tick — up to 16.7 ms at its default 60 frames a second,
// a frame behind less. 120 is the most it allows (8.3 ms); a tick with
// nothing new writes nothing.
const FrameRate = 120

// Run runs the program until the user quits, or a signal ends it.
//
// SIGINT, SIGTERM and SIGHUP (the terminal closed), or ctx ending
// (forge's interrupt watcher handles the same signals), cancel the views'
// requests at once and quit the program as q does (stop): its input
// reader ends before the terminal is closed and restored. Run then
// returns the context's error. bubbletea's own signal handler is off — it
// sends a QuitMsg nobody may read any more once the program's context is
// cancelled, and the exit waits on it for good. Drafts need nothing on the
// way out: the keep writes them as they change.
func Run(ctx context.Context, o Options) error {
	ctx, cancel := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer cancel()
	a := New(ctx, o)
	// The program's own context outlives ctx by at most quitGrace (stop).
	progCtx, kill := context.WithCancel(context.WithoutCancel(ctx))
	defer kill()
	opts := []tea.ProgramOption{tea.WithContext(progCtx), tea.WithoutSignalHandler(), tea.WithFPS(FrameRate)}
	if !o.Color {
		opts = append(opts, tea.WithColorProfile(colorprofile.Ascii))
	}
	if o.Input != nil {
		opts = append(opts, tea.WithInput(o.Input))
	}
	if o.Output != nil {
		opts = append(opts, tea.WithOutput(o.Output))
	}
	opts = append(opts, o.ProgramOptions...)
	p := tea.NewProgram(a, opts...)
	if o.Notes != nil {
		o.Notes.SetSender(p.Send)
	}
	defer context.AfterFunc(ctx, func() { stop(p, kill) })()
	_, err := p.Run()
	if ctx.Err() != nil && (err == nil || errors.Is(err, tea.ErrProgramKilled)) {
		return ctx.Err()
	}
	return err
}

// quitGrace is how long a program told to quit may take before it is
// killed: time for its event loop to read the QuitMsg and for the input
// reader to end (bubbletea waits up to 500 ms for it).
const quitGrace = 2 * time.Second

// stop quits p the way q does, so that bubbletea waits for its input
// reader to end before closing the terminal: killing the program (its
// context cancelled) closes the terminal's file while the reader may
// still be using it (a data race go test -race reports in
// cmd/tui's TestSignalsRestoreTheTerminal). A program that has not
// stopped after quitGrace is killed. Called once, on its own goroutine.
func stop(p *tea.Program, kill context.CancelFunc) {
	time.AfterFunc(quitGrace, kill) // a no-op once Run has returned
	p.Quit()                        // returns when the event loop has the message, or p was killed
}

// Notice is a message for the status line, sent from outside the program.
func Notice(msg string) tea.Msg { return common.StatusMsg{Text: text.OneLine(msg)} }

func (a *App) openSwitcher() tea.Cmd {
	if a.opts.NewFactory == nil {
		return nil
	}
	a.switcher = profiles.New(a.ctx)
	a.switcher.SetSize(a.ctx.Width, a.ctx.Height)
	return a.switcher.Init()
}

// switchProfile starts afresh on another profile: new clients, no current
// repository, every tab reopened on its first view.
func (a *App) switchProfile(msg common.SwitchProfileMsg) tea.Cmd {
	a.switcher = nil
	f := a.opts.NewFactory(msg.Profile)
	if _, err := f.Settings(); err != nil {
		return common.Error(err)
	}
	a.ctx = a.ctx.Derive(f)
	a.ctx.Source = common.FromSwitcher
	if msg.Save {
		a.ctx.Source = config.FromFile
	}
	a.stack.Reset(newTabs())
	a.bar.Reset()
	a.frame.Restyle(a.ctx)
	// The git remotes name a repository of the profile forge started
	// with: on another, only the last one opened there.
	cmds := []tea.Cmd{a.visit(a.stack.Active()), a.whoami(), a.findRepo(nil)}
	note := "Switched to profile " + msg.Profile + " for this session."
	if msg.Save {
		note = "Switched to profile " + msg.Profile + "; it is now the current profile."
		cmds = append(cmds, func() tea.Msg {
			if err := f.UpdateConfig(func(cf *config.File) error { cf.CurrentProfile = msg.Profile; return nil }); err != nil {
				return common.StatusMsg{Text: "switched, but the profile was not saved as current: " + text.ErrorText(err), Err: true}
			}
			return nil
		})
	}
	return tea.Batch(append(cmds, common.Status(note))...)
}
