package iostreams

import "github.com/forgehq/forge/internal/text"

// Styled is text forge itself made for a terminal: its own words with the
// colour a ColorScheme added. Printf and ColorScheme.Sprintf pass a Styled
// argument as it is, while every other text argument is sanitized on a
// terminal: only the colour helpers below and Sprintf make one, and each
// sanitizes what it wraps on a terminal, so a Styled never carries a
// server's escapes. Concatenating Styled values (and constants) gives a
// Styled; converting a string to one is reserved for forge's own text
// (cmd's TestPrintingGoesThroughTheStreams refuses it there).
type Styled string

// String is the text with its escapes.
func (s Styled) String() string { return string(s) }

// ColorScheme wraps text in ANSI SGR sequences when colour is enabled and
// returns it unchanged otherwise. Plain escape codes keep start-up free of
// any terminal library. On a terminal (tty) what it wraps is sanitized
// first (text.Sanitize: lines and tabs kept), so styling a server's value
// cannot smuggle its escapes through.
type ColorScheme struct{ enabled, tty bool }

// Enabled reports whether this scheme colours anything.
func (c *ColorScheme) Enabled() bool { return c.enabled }

func (c *ColorScheme) wrap(code, s string) Styled {
	if c.tty {
		s = text.Sanitize(s)
	}
	if !c.enabled || s == "" || code == "" {
		return Styled(s)
	}
	return Styled("\x1b[" + code + "m" + s + "\x1b[0m")
}

func (c *ColorScheme) Bold(s string) Styled    { return c.wrap("1", s) }
func (c *ColorScheme) Dim(s string) Styled     { return c.wrap("2", s) }
func (c *ColorScheme) Red(s string) Styled     { return c.wrap("31", s) }
func (c *ColorScheme) Green(s string) Styled   { return c.wrap("32", s) }
func (c *ColorScheme) Yellow(s string) Styled  { return c.wrap("33", s) }
func (c *ColorScheme) Magenta(s string) Styled { return c.wrap("35", s) }
func (c *ColorScheme) Cyan(s string) Styled    { return c.wrap("36", s) }
func (c *ColorScheme) Gray(s string) Styled    { return c.wrap("90", s) }

// SuccessIcon, WarningIcon and FailureIcon prefix status messages.
func (c *ColorScheme) SuccessIcon() Styled { return c.Green("✓") }
func (c *ColorScheme) WarningIcon() Styled { return c.Yellow("!") }
func (c *ColorScheme) FailureIcon() Styled { return c.Red("X") }

// NewColorScheme returns a scheme that colours when enabled is true and
// sanitizes nothing: for text sanitized before it is styled (a template's
// data), whose colours may nest.
func NewColorScheme(enabled bool) *ColorScheme { return &ColorScheme{enabled: enabled} }

// BoldCyan is s in bold cyan (the chat's prompt).
func (c *ColorScheme) BoldCyan(s string) Styled { return c.wrap("1;36", s) }

// Named colours s by a colour's name, for templates.
func (c *ColorScheme) Named(name, s string) Styled {
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
	return c.wrap("", s)
}

// Doc builds a view (a record's header, its body, its comments) from
// Styled parts in order, for one Print.
type Doc struct{ b []byte }

// Add appends parts to the view.
func (d *Doc) Add(parts ...Styled) {
	for _, p := range parts {
		d.b = append(d.b, p...)
	}
}

// Printf appends cs.Sprintf(format, a...).
func (d *Doc) Printf(cs *ColorScheme, format string, a ...any) {
	d.Add(cs.Sprintf(format, a...))
}

// Styled is the view built so far.
func (d *Doc) Styled() Styled { return Styled(d.b) }

// Join joins Styled parts with sep between them, as strings.Join does.
func Join(parts []Styled, sep Styled) Styled {
	var d Doc
	for i, p := range parts {
		if i > 0 {
			d.Add(sep)
		}
		d.Add(p)
	}
	return d.Styled()
}
