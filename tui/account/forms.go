package account

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/app/authflow"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
)

// sentMsg is the service's answer to a form.
type sentMsg struct {
	owner int
	err   error
	done  tea.Cmd // what follows a success
}

// form is a few labelled one-line fields — the profile, a password
// change — that tab and shift+tab move between, ctrl+s (or enter on the
// last field) sends, and esc leaves. A failed send keeps what was typed.
type form struct {
	ctx     *common.Context
	id      int
	title   string
	labels  []string
	fields  []*components.Editor
	focus   int
	sending bool
	width   int
	height  int
	// send checks the values and returns the request, or an error to
	// show with nothing sent.
	send func(values []string) (func(context.Context, *client.Client) (tea.Cmd, error), error)

	keySend, keyField, keyLeave key.Binding
}

func newForm(ctx *common.Context, title string, labels ...string) *form {
	f := &form{ctx: ctx, id: ctx.NewID(), title: title, labels: labels}
	for range labels {
		e := components.NewEditor(ctx, false)
		f.fields = append(f.fields, e)
	}
	f.fields[0].Focus()
	f.keySend = common.Binding("ctrl+s", "send", "ctrl+s")
	f.keyField = common.Binding("tab/shift+tab", "next/previous field", "tab", "shift+tab")
	f.keyLeave = common.Binding("esc", "leave, nothing sent", "esc")
	return f
}

func (f *form) values() []string {
	v := make([]string, len(f.fields))
	for i, e := range f.fields {
		v[i] = e.Value()
	}
	return v
}

func (f *form) setFocus(i int) {
	f.fields[f.focus].Blur()
	f.focus = (i + len(f.fields)) % len(f.fields)
	f.fields[f.focus].Focus()
}

func (f *form) Init() tea.Cmd { return nil }

func (f *form) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case sentMsg:
		if msg.owner != f.id {
			return nil
		}
		f.sending = false
		if msg.err != nil {
			return common.Error(msg.err)
		}
		return tea.Batch(common.Close(f), msg.done)
	case tea.KeyPressMsg:
		return f.key(msg)
	case tea.PasteMsg:
		f.fields[f.focus].Update(msg)
	}
	return nil
}

func (f *form) key(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, f.keyLeave):
		return common.Close(f)
	case key.Matches(msg, f.keySend), msg.String() == "enter" && f.focus == len(f.fields)-1:
		return f.submit()
	case msg.String() == "tab", msg.String() == "enter", msg.String() == "down":
		f.setFocus(f.focus + 1)
	case msg.String() == "shift+tab", msg.String() == "up":
		f.setFocus(f.focus - 1)
	default:
		f.fields[f.focus].Update(msg)
	}
	return nil
}

func (f *form) submit() tea.Cmd {
	if f.sending {
		return nil
	}
	req, err := f.send(f.values())
	if err != nil {
		return common.Error(err)
	}
	if req == nil {
		return tea.Batch(common.Close(f), common.Status("Nothing changed."))
	}
	c, err := f.ctx.REST()
	if err != nil {
		return common.Error(err)
	}
	f.sending = true
	ctx, owner := f.ctx.Ctx, f.id
	return func() tea.Msg {
		done, err := req(ctx, c)
		return sentMsg{owner: owner, err: err, done: done}
	}
}

func (f *form) SetSize(width, height int) {
	f.width, f.height = width, height
	for _, e := range f.fields {
		e.SetWidth(max(width-16, 10))
	}
}

func (f *form) View() string {
	st := f.ctx.Styles
	head := st.Bold.Render(f.title) + st.Dim.Render(" · tab moves · ctrl+s sends · esc leaves")
	if f.sending {
		head = st.Accent.Render(f.ctx.Spinner) + " Sending…"
	}
	lines := []string{head, ""}
	for i, l := range f.labels {
		label := st.Label.Render(fmt.Sprintf("%-15s", l))
		if i == f.focus {
			label = st.Prompt.Render(fmt.Sprintf("%-15s", l))
		}
		lines = append(lines, label+" "+f.fields[i].View())
	}
	return common.Pad(strings.Join(lines, "\n"), f.width, f.height)
}

func (f *form) Title() string   { return f.title }
func (f *form) Capturing() bool { return true }
func (f *form) Animating() bool { return f.sending }
func (f *form) ShortHelp() []key.Binding {
	return []key.Binding{f.keySend, f.keyField, f.keyLeave}
}
func (f *form) FullHelp() [][]key.Binding { return [][]key.Binding{f.ShortHelp()} }

// Interrupt: Ctrl-C leaves the form as esc does.
func (f *form) Interrupt() (tea.Cmd, bool) { return common.Close(f), true }

// profileFields are the profile's fields as the form and the service
// name them.
var profileFields = []struct{ label, json string }{
	{"Full name", "full_name"}, {"Email", "email"}, {"Location", "location"}, {"Website", "website"}, {"Description", "description"},
}

// newProfileForm edits the profile as `forge account edit` does: only
// the fields changed are sent; emptied, a field is cleared.
func newProfileForm(ctx *common.Context, me *client.User) *form {
	labels := make([]string, len(profileFields))
	for i, pf := range profileFields {
		labels[i] = pf.label
	}
	f := newForm(ctx, "Edit your profile", labels...)
	// The User record has name and email; the service may send the rest.
	var all map[string]any
	json.Unmarshal(me.RawJSON(), &all)
	before := make([]string, len(profileFields))
	for i, pf := range profileFields {
		if s, ok := all[pf.json].(string); ok {
			before[i] = s
		}
	}
	before[0], before[1] = me.FullName, me.Email
	for i, v := range before {
		f.fields[i].SetValue(v)
	}
	f.send = func(values []string) (func(context.Context, *client.Client) (tea.Cmd, error), error) {
		var u client.ProfileUpdate
		set := []**string{&u.FullName, &u.Email, &u.Location, &u.Website, &u.Description}
		dirty := false
		for i, v := range values {
			if v != before[i] {
				*set[i], dirty = &values[i], true
			}
		}
		if !dirty {
			return nil, nil
		}
		return func(cx context.Context, c *client.Client) (tea.Cmd, error) {
			if err := c.Account.UpdateProfile(cx, u); err != nil {
				return nil, fmt.Errorf("the profile was not changed: %w", err)
			}
			return tea.Batch(common.Status("Profile updated."), changed), nil
		}, nil
	}
	return f
}

// newPasswordForm changes the password as `forge account password`
// does: the new one twice, checked before anything is sent; the token
// the service issues in place of the old one is stored in the profile
// and used from then on, and the registry password with it.
func newPasswordForm(ctx *common.Context) *form {
	f := newForm(ctx, "Change your password", "Current", "New", "New again")
	for _, e := range f.fields {
		e.Mask = "•"
	}
	fac, profile := ctx.Factory, ctx.Profile
	f.send = func(v []string) (func(context.Context, *client.Client) (tea.Cmd, error), error) {
		oldPW, newPW := v[0], v[1]
		if oldPW == "" {
			return nil, errors.New("type the current password first")
		}
		if err := authflow.CheckNewPassword(oldPW, newPW); err != nil {
			return nil, err
		}
		if v[2] != newPW {
			return nil, errors.New("the two new passwords differ: type the new one again")
		}
		s, err := fac.Settings()
		if err != nil {
			return nil, err
		}
		return func(cx context.Context, c *client.Client) (tea.Cmd, error) {
			token, err := c.Account.ChangePassword(cx, oldPW, newPW)
			if err != nil {
				if client.HasStatus(err, 403) {
					return nil, fmt.Errorf("the current password is not right; nothing changed")
				}
				return nil, err
			}
			ch, err := authflow.PasswordChanged(fac, s, newPW, token)
			if err != nil {
				return nil, err
			}
			note := "Password changed."
			if ch.Token {
				note += " The new token the service issued is stored in profile " + profile + "."
			}
			if ch.TokenFromEnv {
				note += " The service issued a new token: FORGE_TOKEN's may no longer work."
			}
			if ch.Registry {
				note += " The registry password is updated too."
			}
			cmds := []tea.Cmd{common.Status(note)}
			if token != "" {
				nc, err := fac.RESTClient(s.BaseURL, token)
				if err != nil {
					return nil, err
				}
				cmds = append(cmds, func() tea.Msg { return common.TokenChangedMsg{Profile: profile, Client: nc} })
			}
			return tea.Batch(cmds...), nil
		}, nil
	}
	return f
}
