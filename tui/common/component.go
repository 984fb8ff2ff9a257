// Package common holds what every view of forge's terminal UI shares: the
// Component interface the views implement, the Context passed to all of
// them by pointer (sizes, styles, key map, clients, configuration), the
// messages they exchange, and small text helpers.
//
// The shape follows charmbracelet/soft-serve's pkg/ui: one model per view,
// a short Update, network work only in tea.Cmds, and results delivered as
// typed messages that name the component that asked for them.
package common

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Component is one view: a list, a page, a form. Components are pointers
// and change in place; Update returns only the command to run.
type Component interface {
	// Init starts the component's first loads.
	Init() tea.Cmd
	// Update handles a message. Messages addressed to other components
	// (results carry the Owner ID of the component that asked) are ignored.
	Update(msg tea.Msg) tea.Cmd
	// View draws the component in the size last given to SetSize.
	View() string
	// SetSize gives the component the cells it may draw in.
	SetSize(width, height int)
	// Title names the component in the breadcrumb line.
	Title() string
	// ShortHelp lists the keys shown in the help line; FullHelp the
	// columns of the help overlay.
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
}

// Capturer is a component that is taking typed text (a filter, an editor):
// while Capturing, every key but Ctrl-C goes to it, so that q, ?, digits
// and tab can be typed.
type Capturer interface {
	Capturing() bool
}

// Focuser is a component with an input that takes the focus whenever its
// tab comes into sight (the chat's message input): the first letters typed
// there are text, never commands.
type Focuser interface {
	Focus()
}

// Backer is a component with levels of its own (a filter to clear, a
// directory to leave, a dialog to dismiss): while CanGoBack, esc goes to
// it rather than closing it.
type Backer interface {
	CanGoBack() bool
}

// Animator is a component that shows the spinner (something loads, a run
// is in progress): the program ticks the spinner while any says so.
type Animator interface {
	Animating() bool
}

// Fullscreen is a component that needs the whole terminal for a moment (a
// QR code to scan at 80×24): while it says so, the tab bar, status and help
// lines are not drawn.
type Fullscreen interface {
	Fullscreen() bool
}

// Refresher reloads its data on the refresh key.
type Refresher interface {
	Refresh() tea.Cmd
}

// Interrupter is a component for which Ctrl-C means something short of
// quitting (stop a streaming reply, leave an editor keeping the draft):
// Interrupt does it and reports true, or reports false to let Ctrl-C
// quit.
type Interrupter interface {
	Interrupt() (tea.Cmd, bool)
}

// Unsent is a component holding something the user typed and has not
// sent (a draft, a conversation): Unsent names it ("" when nothing), and
// quitting asks first.
type Unsent interface {
	Unsent() string
}

// Linker is a component whose item in sight (the selected row, the page
// shown) has a web page on the service: y copies its address, w opens it
// in the browser. Link is "" when there is none.
type Linker interface {
	Link() string
}
