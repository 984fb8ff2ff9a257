package common

import (
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
)

// PushMsg opens a component on top of the current tab's stack.
type PushMsg struct{ C Component }

// CloseMsg closes a component, wherever it is (a form once it has sent,
// a page whose subject was deleted), with whatever was opened above it.
type CloseMsg struct{ C Component }

// ReplaceMsg puts New in Old's place: a form becomes the page of what it
// created.
type ReplaceMsg struct{ Old, New Component }

// StatusMsg shows a line in the status bar: a notice, or an error.
type StatusMsg struct {
	Text string
	Err  bool
}

// RepoChosenMsg makes a repository the current one: the Issues and CI tabs
// show it.
type RepoChosenMsg struct{ Repo client.RepoName }

// IssueChangedMsg tells every view that an issue changed (closed, reopened,
// commented on, created), so lists showing it can update their row.
type IssueChangedMsg struct {
	Repo  client.RepoName
	Issue *client.Issue
}

// ThemeMsg tells every view that the styles changed (the terminal's
// background colour arrived): cached renderings are stale.
type ThemeMsg struct{}

// SwitchTabMsg makes another tab active: Tab by number, or Delta tabs
// along (tab and shift+tab typed in an editor that does not use them), or
// Back to the tab that was active before (chat's /exit).
type SwitchTabMsg struct {
	Tab   int
	Delta int
	Back  bool
}

// SwitchProfileMsg makes the TUI work with another configuration profile;
// Save also makes it the current profile in the configuration file.
type SwitchProfileMsg struct {
	Profile string
	Save    bool
}

// Push returns a command that opens c.
func Push(c Component) tea.Cmd { return func() tea.Msg { return PushMsg{c} } }

// Close returns a command that closes c.
func Close(c Component) tea.Cmd { return func() tea.Msg { return CloseMsg{c} } }

// Replace returns a command that puts new in old's place.
func Replace(old, new Component) tea.Cmd {
	return func() tea.Msg { return ReplaceMsg{Old: old, New: new} }
}

// Status returns a command that shows a notice.
func Status(text string) tea.Cmd { return func() tea.Msg { return StatusMsg{Text: text} } }

// Error returns a command that shows err in the status bar; nil for a nil
// error.
func Error(err error) tea.Cmd {
	if err == nil {
		return nil
	}
	return func() tea.Msg { return StatusMsg{Text: text.ErrorText(err), Err: true} }
}
