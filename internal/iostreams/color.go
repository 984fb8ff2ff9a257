package iostreams

// ColorScheme wraps text in ANSI SGR sequences when colour is enabled and
// returns it unchanged otherwise. Plain escape codes keep start-up free of
// any terminal library.
type ColorScheme struct{ enabled bool }

// Enabled reports whether this scheme colours anything.
func (c *ColorScheme) Enabled() bool { return c.enabled }

func (c *ColorScheme) wrap(code, s string) string {
	if !c.enabled || s == "" {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func (c *ColorScheme) Bold(s string) string    { return c.wrap("1", s) }
func (c *ColorScheme) Dim(s string) string     { return c.wrap("2", s) }
func (c *ColorScheme) Red(s string) string     { return c.wrap("31", s) }
func (c *ColorScheme) Green(s string) string   { return c.wrap("32", s) }
func (c *ColorScheme) Yellow(s string) string  { return c.wrap("33", s) }
func (c *ColorScheme) Magenta(s string) string { return c.wrap("35", s) }
func (c *ColorScheme) Cyan(s string) string    { return c.wrap("36", s) }
func (c *ColorScheme) Gray(s string) string    { return c.wrap("90", s) }

// SuccessIcon, WarningIcon and FailureIcon prefix status messages.
func (c *ColorScheme) SuccessIcon() string { return c.Green("✓") }
func (c *ColorScheme) WarningIcon() string { return c.Yellow("!") }
func (c *ColorScheme) FailureIcon() string { return c.Red("X") }

// NewColorScheme returns a scheme that colours when enabled is true.
func NewColorScheme(enabled bool) *ColorScheme { return &ColorScheme{enabled: enabled} }

// Named colours s by a colour's name, for templates.
func (c *ColorScheme) Named(name, s string) string {
	switch name {
	case "bold":
		return c.Bold(s)
	case "dim":
		return c.Dim(s)
	case "red":
		return c.Red(s)
	case "green":
		return c.Green(s)
	case "yellow":
		return c.Yellow(s)
	case "magenta":
		return c.Magenta(s)
	case "cyan":
		return c.Cyan(s)
	case "gray", "grey":
		return c.Gray(s)
	}
	return s
}
