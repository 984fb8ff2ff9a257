package common

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Styles are the TUI's looks, built for a colour setting and a background.
// Without colour, only attributes remain (bold, reverse, faint), so the
// selected row and the active tab stay visible under NO_COLOR.
type Styles struct {
	App         lipgloss.Style
	Logo        lipgloss.Style
	Tab         lipgloss.Style
	ActiveTab   lipgloss.Style
	Crumb       lipgloss.Style
	CrumbSep    lipgloss.Style
	Header      lipgloss.Style // table headers
	Selected    lipgloss.Style // the row under the cursor
	Dim         lipgloss.Style
	Bold        lipgloss.Style
	Accent      lipgloss.Style
	Success     lipgloss.Style
	Failure     lipgloss.Style
	Warning     lipgloss.Style
	Info        lipgloss.Style
	Error       lipgloss.Style // the status line's errors
	Notice      lipgloss.Style
	HelpKey     lipgloss.Style
	HelpDesc    lipgloss.Style
	Section     lipgloss.Style // a page's section names
	SectionOn   lipgloss.Style
	Box         lipgloss.Style // overlays
	BoxTitle    lipgloss.Style
	Cursor      lipgloss.Style // the editor's cursor cell
	Placeholder lipgloss.Style
	Label       lipgloss.Style // "Name:" in detail pages
	Prompt      lipgloss.Style
	Gutter      lipgloss.Style // log line numbers
}

// NewStyles builds the styles.
func NewStyles(useColor, dark bool) *Styles {
	ld := lipgloss.LightDark(dark)
	c := func(light, darkc string) color.Color {
		if !useColor {
			return lipgloss.NoColor{}
		}
		return ld(lipgloss.Color(light), lipgloss.Color(darkc))
	}
	n := lipgloss.NewStyle
	s := &Styles{
		App:         n(),
		Logo:        n().Bold(true).Foreground(c("57", "141")),
		Tab:         n().Padding(0, 1).Foreground(c("242", "246")),
		ActiveTab:   n().Padding(0, 1).Bold(true).Foreground(c("16", "231")).Background(c("153", "61")),
		Crumb:       n().Bold(true),
		CrumbSep:    n().Foreground(c("245", "240")),
		Header:      n().Bold(true).Foreground(c("240", "250")),
		Selected:    n().Bold(true).Foreground(c("16", "231")).Background(c("189", "60")),
		Dim:         n().Foreground(c("244", "243")),
		Bold:        n().Bold(true),
		Accent:      n().Foreground(c("26", "117")),
		Success:     n().Foreground(c("28", "78")),
		Failure:     n().Foreground(c("160", "203")),
		Warning:     n().Foreground(c("130", "221")),
		Info:        n().Foreground(c("31", "80")),
		Error:       n().Bold(true).Foreground(c("160", "203")),
		Notice:      n().Foreground(c("28", "78")),
		HelpKey:     n().Foreground(c("238", "252")),
		HelpDesc:    n().Foreground(c("244", "243")),
		Section:     n().Padding(0, 1).Foreground(c("242", "246")),
		SectionOn:   n().Padding(0, 1).Bold(true).Underline(true).Foreground(c("26", "117")),
		Box:         n().Border(lipgloss.RoundedBorder()).BorderForeground(c("61", "141")).Padding(0, 1),
		BoxTitle:    n().Bold(true).Foreground(c("57", "141")),
		Cursor:      n().Reverse(true),
		Placeholder: n().Foreground(c("246", "240")),
		Label:       n().Foreground(c("242", "246")),
		Prompt:      n().Bold(true).Foreground(c("26", "117")),
		Gutter:      n().Foreground(c("248", "239")),
	}
	if !useColor {
		// Attributes carry what colour would: the active tab and the
		// selection in reverse video, faint for secondary text.
		s.ActiveTab = n().Padding(0, 1).Bold(true).Reverse(true)
		s.Selected = n().Bold(true).Reverse(true)
		s.Dim = n().Faint(true)
		s.HelpDesc = n().Faint(true)
		s.Placeholder = n().Faint(true)
		s.SectionOn = n().Padding(0, 1).Bold(true).Underline(true)
		s.Error = n().Bold(true)
	}
	return s
}
