package common

import (
	"context"
	"errors"
	"net/http"

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
// Unauthorized marks the service refusing the token (401): the program
// offers its login form.
type StatusMsg struct {
	Text         string
	Err          bool
	Unauthorized bool
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

// AskAgentMsg opens the chat tab with Ref (issue:12, pull:3, run:57,
// file:PATH — agentctx's REF forms) of Repo attached to the next message;
// Prompt, when the input is empty, is put there as a question to send or
// edit.
type AskAgentMsg struct {
	Repo   client.RepoName
	Ref    string
	Prompt string
}

// AskAgent returns a command that opens the chat with ref attached.
func AskAgent(repo client.RepoName, ref, prompt string) tea.Cmd {
	return func() tea.Msg { return AskAgentMsg{Repo: repo, Ref: ref, Prompt: prompt} }
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

// ClearStatus returns a command that takes the notice of the tab away
// (what it said no longer holds: an error since put right).
func ClearStatus() tea.Cmd { return func() tea.Msg { return StatusMsg{} } }

// Status returns a command that shows a notice.
func Status(text string) tea.Cmd { return func() tea.Msg { return StatusMsg{Text: text} } }

// Error returns a command that shows err in the status bar; nil for a nil
// error.
func Error(err error) tea.Cmd {
	if err == nil {
		return nil
	}
	var refused *client.Error // a 403 refusing the token counts as a 401
	unauthorized := client.HasStatus(err, http.StatusUnauthorized) || errors.As(err, &refused) && refused.CredentialsRefused()
	msg := StatusMsg{Text: text.ErrorText(err), Err: true, Unauthorized: unauthorized}
	return func() tea.Msg { return msg }
}

// Result is the answer to a request a component sent: Owner is the ID of
// the component that asked (Context.NewID), Gen the request's generation
// (Load.Start). Every view's loads arrive as one of these, so the check
// that drops answers meant for another component, or for an older
// request, is written once (Take).
type Result[T any] struct {
	Owner, Gen int
	Value      T
	Err        error

	ctx *Context // whose request it was
}

// Answer is a Result of any type: the program counts them in (Context.
// Answered) to know when no request is in flight.
type Answer interface{ answers() *Context }

func (r Result[T]) answers() *Context { return r.ctx }

// Answered records that an answer reached the program: a request of msg's
// context is no longer in flight. Other messages are no answers.
func Answered(msg tea.Msg) {
	if a, ok := msg.(Answer); ok && a.answers() != nil {
		a.answers().inflight.Add(-1)
	}
}

// Fetch returns a command that runs work and delivers its answer to owner
// as request gen; c counts the request in flight until the program has it.
func Fetch[T any](c *Context, owner, gen int, work func() (T, error)) tea.Cmd {
	c.inflight.Add(1)
	return func() tea.Msg {
		v, err := work()
		return Result[T]{Owner: owner, Gen: gen, Value: v, Err: err, ctx: c}
	}
}

// LoadREST starts a load of owner's, tracked by l, from the REST API:
// work runs in the command with the TUI's context and client, and its
// answer arrives as a Result. Without a client (no token) the error is
// recorded in l at once and there is no command.
func LoadREST[T any](c *Context, l *Load, owner int, work func(context.Context, *client.Client) (T, error)) tea.Cmd {
	rc, err := c.REST()
	if err != nil {
		l.Fail(err)
		return nil
	}
	ctx := c.Ctx
	return Fetch(c, owner, l.Start(), func() (T, error) { return work(ctx, rc) })
}

// Take reports whether r is the answer to id's latest request, recording
// it in l; false means it is another component's, or stale, and must be
// dropped.
func (r Result[T]) Take(id int, l *Load) bool {
	return r.Owner == id && l.Finish(r.Gen, r.Err)
}

// Accept is Take for the usual case: ok when r is id's latest answer and
// succeeded, so its Value is to be used; when it failed, failed shows the
// error in the status line (nil otherwise).
func (r Result[T]) Accept(id int, l *Load) (ok bool, failed tea.Cmd) {
	if !r.Take(id, l) {
		return false, nil
	}
	return r.Err == nil, Error(r.Err)
}

// Copy puts s on the clipboard through the terminal (OSC 52, which works
// over ssh too) and says what was copied.
func Copy(s, what string) tea.Cmd {
	return tea.Batch(tea.SetClipboard(s), Status("Copied "+what+" to the clipboard."))
}

// TokenChangedMsg says the service issued a new token for Profile (a
// password change revoked the old one): Client uses it, and the program
// puts it to work.
type TokenChangedMsg struct {
	Profile string
	Client  *client.Client
}
