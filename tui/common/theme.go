package common

import "charm.land/lipgloss/v2"

// HighContrastStyles are the styles of the high-contrast theme: no faint
// or mid-grey text, saturated colours, the selection and the active tab
// in strong reverse colours, on a dark or a light background.
func HighContrastStyles(dark bool) *Styles {
	c := func(light, darkc string) lipgloss.Style {
		if dark {
			return lipgloss.NewStyle().Foreground(lipgloss.Color(darkc))
		}
		return lipgloss.NewStyle().Foreground(lipgloss.Color(light))
	}
	on := func(fgLight, bgLight, fgDark, bgDark string) lipgloss.Style {
		if dark {
			return lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color(fgDark)).Background(lipgloss.Color(bgDark))
		}
		return lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color(fgLight)).Background(lipgloss.Color(bgLight))
	}
	s := NewStyles(true, dark)
	text, dim, accent := c("16", "231"), c("235", "253"), c("19", "51")
	s.Logo = accent.Bold(true)
	s.Tab = text.Padding(0, 1)
	s.ActiveTab = on("231", "19", "16", "51").Padding(0, 1)
	s.CrumbSep, s.Header = dim, text.Bold(true)
	s.Selected = on("231", "19", "16", "226")
	s.Dim, s.HelpDesc, s.Label, s.Placeholder, s.Gutter = dim, dim, dim, dim, dim
	s.HelpKey = text.Bold(true)
	s.Accent, s.Info, s.Prompt = accent, accent, accent.Bold(true)
	s.Success, s.Notice = c("22", "46"), c("22", "46")
	s.Failure, s.Error = c("124", "196"), c("124", "196").Bold(true)
	s.Warning = c("94", "226")
	s.Section = text.Padding(0, 1)
	s.SectionOn = accent.Bold(true).Underline(true).Padding(0, 1)
	border := "16"
	if dark {
		border = "231"
	}
	s.Box = s.Box.BorderForeground(lipgloss.Color(border))
	s.BoxTitle = accent.Bold(true)
	return s
}
