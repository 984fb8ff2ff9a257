// Package frame draws what the TUI shows around the view in sight: the
// tab bar and breadcrumb above it, the status and help lines below, and
// an overlay (the help, the login form, the profile switcher) on top.
// Every line is cut to the width, so nothing wraps when the terminal
// shrinks.
package frame

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
)

// Above is the rows drawn above the view: the tab bar and breadcrumb.
// Chrome is the rows drawn around it: those, and the status and help
// lines below.
const (
	Above  = 2
	Chrome = Above + 2
)

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
	// Keys are the help line's: the view's, cut from the end when the
	// line is too narrow, then Always (? help, q quit), never cut.
	Keys, Always []key.Binding
	// Overlay is drawn centred on top ("" for none).
	Overlay string
}

// Render draws p on the whole terminal.
func (f *Frame) Render(p Parts) string {
	w, h := f.ctx.Width, f.ctx.Height
	frame := p.View
	if !p.Full {
		frame = strings.Join([]string{
			f.tabBar(p.Tabs, p.Active), f.crumbs(p.Crumbs), p.View, strings.Join(p.Status, "\n"), f.helpLine(p.Keys, p.Always),
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
	left := f.tabs(names, active, f.tabFit(names, active))
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

// tabFit is how the tabs fit the width: narrower, without the logo,
// then the other tabs as their numbers (with the logo again if it fits).
func (f *Frame) tabFit(names []string, active int) (fit tabFit) {
	for _, fit = range []tabFit{{true, false}, {false, false}, {true, true}, {false, true}} {
		if ansi.StringWidth(f.tabs(names, active, fit)) <= f.ctx.Width {
			break
		}
	}
	return fit
}

// tabFit says whether the logo is drawn and the other tabs shortened.
type tabFit struct{ logo, short bool }

func (f *Frame) tabs(names []string, active int, fit tabFit) string {
	return strings.Join(f.tabParts(names, active, fit), "")
}

// tabParts are the logo ("" without it), then each tab as drawn side by
// side.
func (f *Frame) tabParts(names []string, active int, fit tabFit) []string {
	st := f.ctx.Styles
	parts := []string{""}
	if fit.logo {
		parts[0] = st.Logo.Render(" forge ")
	}
	for i, name := range names {
		label := string(rune('1'+i)) + " " + name
		switch {
		case i == active:
			parts = append(parts, st.ActiveTab.Render(label))
		case fit.short:
			parts = append(parts, st.Tab.Render(string(rune('1'+i))))
		default:
			parts = append(parts, st.Tab.Render(label))
		}
	}
	return parts
}

// crumbs draws the path to the view in sight. A long path is cut from
// the right, in the last title first: the repository and the start of
// the title (#7) stay; titles between them give way to "…" if need be.
func (f *Frame) crumbs(parts []string) string {
	st := f.ctx.Styles
	room := f.ctx.Width - 1
	sep := st.CrumbSep.Render(" › ")
	draw := func(parts []string) string {
		drawn := make([]string, len(parts))
		for i, p := range parts {
			if i == len(parts)-1 {
				drawn[i] = st.Crumb.Render(p)
			} else {
				drawn[i] = st.Dim.Render(p)
			}
		}
		return strings.Join(drawn, sep)
	}
	parts = slices.Clone(parts)
	line := draw(parts)
	// Room the last title keeps, the others drawn whole.
	lastRoom := func() int { return room - (ansi.StringWidth(line) - ansi.StringWidth(parts[len(parts)-1])) }
	const least = 12
	for ansi.StringWidth(line) > room && len(parts) > 2 && lastRoom() < least {
		switch {
		case parts[1] != "…":
			parts[1] = "…"
		case len(parts) > 3:
			parts = slices.Delete(parts, 2, 3)
		default:
			parts = slices.Delete(parts, 1, 2)
		}
		line = draw(parts)
	}
	if over := ansi.StringWidth(line) - room; over > 0 {
		last := parts[len(parts)-1]
		parts[len(parts)-1] = ansi.Truncate(last, max(ansi.StringWidth(last)-over, 1), "…")
		line = ansi.Truncate(draw(parts), room, "…")
	}
	return common.Fit(" "+line, f.ctx.Width)
}

// helpLine lists keys then always, dropping keys from the end until the
// line fits: the help key and quit are always there to read. Widths are
// counted from the bindings' text (key, space, description, " · "), so
// the line is drawn once.
func (f *Frame) helpLine(keys, always []key.Binding) string {
	room := f.ctx.Width - 1
	width := func(bs []key.Binding) int {
		w := 0
		for _, b := range bs {
			if h := b.Help(); b.Enabled() && (h.Key != "" || h.Desc != "") {
				w += ansi.StringWidth(h.Key) + 1 + ansi.StringWidth(h.Desc) + 3
			}
		}
		return w
	}
	n, used := len(keys), width(always)
	for n > 0 && used+width(keys[:n])-3 > room {
		n--
	}
	return common.Fit(" "+f.help.ShortHelpView(append(slices.Clip(keys[:n]), always...)), f.ctx.Width)
}
