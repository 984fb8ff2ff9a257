// Package frame draws what the TUI shows around the view in sight: the
// tab bar and breadcrumb above it, the status and help lines below, and
// an overlay (the help, the login form, the profile switcher) on top.
// Every line is cut to the width, so nothing wraps when the terminal
// shrinks.
package frame

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
)

// Chrome is the rows drawn around the view: the tab bar and breadcrumb
// above it, the status and help lines below.
const Chrome = 4

// Frame draws; it holds the help line's model, styled from the theme.
type Frame struct {
	ctx  *common.Context
	help help.Model
}

// New returns a frame styled from ctx's theme.
func New(ctx *common.Context) *Frame {
	f := &Frame{ctx: ctx, help: help.New()}
	f.Restyle(ctx)
	return f
}

// Restyle takes the theme (and the context) anew.
func (f *Frame) Restyle(ctx *common.Context) {
	f.ctx = ctx
	st := ctx.Styles
	f.help.Styles.ShortKey = st.HelpKey
	f.help.Styles.ShortDesc = st.HelpDesc
	f.help.Styles.ShortSeparator = st.Dim
	f.help.Styles.Ellipsis = st.Dim
	f.help.ShortSeparator = " · "
}

// SetWidth gives the help line the terminal's width.
func (f *Frame) SetWidth(w int) { f.help.SetWidth(w) }

// Parts are what a frame shows.
type Parts struct {
	// Tabs are the tabs' names; Active the one in sight.
	Tabs   []string
	Active int
	// Crumbs is the path to the view: the repository of a per-repo tab,
	// then each open component's title.
	Crumbs []string
	// View is the view in sight, drawn in its area; Full when it takes
	// the whole terminal.
	View string
	Full bool
	// Status is the status line's rows (none: one empty row).
	Status []string
	// Keys are the help line's.
	Keys []key.Binding
	// Overlay is drawn centred on top ("" for none).
	Overlay string
}

// Render draws p on the whole terminal.
func (f *Frame) Render(p Parts) string {
	w, h := f.ctx.Width, f.ctx.Height
	frame := p.View
	if !p.Full {
		frame = strings.Join([]string{
			f.tabBar(p.Tabs, p.Active), f.crumbs(p.Crumbs), p.View, strings.Join(p.Status, "\n"), " " + f.help.ShortHelpView(p.Keys),
		}, "\n")
	}
	if p.Overlay != "" {
		frame = overlay(frame, p.Overlay, w, h)
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
func (f *Frame) tabBar(names []string, active int) string {
	left := f.tabs(names, active, false)
	if ansi.StringWidth(left) > f.ctx.Width {
		left = f.tabs(names, active, true)
	}
	st := f.ctx.Styles
	who := f.ctx.Profile
	if f.ctx.User != "" {
		who = f.ctx.User + "@" + who
	}
	right := st.Dim.Render(text.OneLine(who) + " ")
	gap := f.ctx.Width - ansi.StringWidth(left) - ansi.StringWidth(right)
	if gap < 1 {
		return common.Fit(left, f.ctx.Width)
	}
	return left + strings.Repeat(" ", gap) + right
}

func (f *Frame) tabs(names []string, active int, short bool) string {
	return strings.Join(f.tabParts(names, active, short), "")
}

// tabParts are the logo, then each tab as drawn side by side.
func (f *Frame) tabParts(names []string, active int, short bool) []string {
	st := f.ctx.Styles
	parts := []string{st.Logo.Render(" forge ")}
	for i, name := range names {
		label := string(rune('1'+i)) + " " + name
		switch {
		case i == active:
			parts = append(parts, st.ActiveTab.Render(label))
		case short:
			parts = append(parts, st.Tab.Render(string(rune('1'+i))))
		default:
			parts = append(parts, st.Tab.Render(label))
		}
	}
	return parts
}

// crumbs draws the path to the view in sight. A long path loses its
// start.
func (f *Frame) crumbs(parts []string) string {
	st := f.ctx.Styles
	drawn := make([]string, len(parts))
	for i, p := range parts {
		if i == len(parts)-1 {
			drawn[i] = st.Crumb.Render(p)
		} else {
			drawn[i] = st.Dim.Render(p)
		}
	}
	line := " " + strings.Join(drawn, st.CrumbSep.Render(" › "))
	if ansi.StringWidth(line) > f.ctx.Width {
		line = ansi.TruncateLeft(line, ansi.StringWidth(line)-f.ctx.Width+1, "…")
	}
	return common.Fit(line, f.ctx.Width)
}
