package output

import (
	"io"
	"strings"

	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/text"
)

// Fields prints a record as "key: value" lines, the keys aligned: a
// view's details (profile show's settings). Like Table, it is where the
// values meet the terminal: on one, every value is sanitized
// (text.OneLine) here, whatever its origin — an answer just read or one
// stored earlier (a login kept in the configuration) — so a command
// hands values as they are and cannot forget; piped, they are the exact
// data. A note (forge's own words, gray) may follow a value.
type Fields struct {
	ios   *iostreams.IOStreams
	title string
	lines []field
}

type field struct{ key, value, note string }

// NewFields starts a record; title, when not empty, is its first line
// (forge's own text, bold on a terminal, e.g. "profile: NAME" — only its
// part after the colon is data, and is sanitized like a value).
func NewFields(ios *iostreams.IOStreams) *Fields { return &Fields{ios: ios} }

// Title sets the record's first line: label (forge's words, bold) and
// value (data).
func (f *Fields) Title(label, value string) { f.title = label + "\x00" + value }

// Add appends a key and its value, with an optional note after it.
// An empty value shows "(not set)".
func (f *Fields) Add(key, value string, note ...string) {
	f.lines = append(f.lines, field{key: key, value: value, note: strings.Join(note, " ")})
}

// Note appends a line of forge's own words (gray, indented) in place.
func (f *Fields) Note(s string) { f.lines = append(f.lines, field{note: s}) }

// Render writes the record to w: stdout, or stderr for a message.
func (f *Fields) Render(w io.Writer) error {
	tty := f.tty(w)
	cs := f.ios.ColorScheme()
	show := func(s string) string { return text.OnTerminal(tty, s) }
	width := 0
	for _, l := range f.lines {
		width = max(width, len(l.key)+1)
	}
	var b strings.Builder
	if label, value, ok := strings.Cut(f.title, "\x00"); ok {
		b.WriteString(string(cs.Bold(label)) + " " + show(value) + "\n")
	}
	for _, l := range f.lines {
		if l.key == "" {
			b.WriteString(string("  " + cs.Gray(l.note) + "\n"))
			continue
		}
		v := show(l.value)
		if v == "" {
			v = string(cs.Gray("(not set)"))
		}
		if l.note != "" {
			v += string(cs.Gray("  " + l.note))
		}
		b.WriteString(l.key + ":" + strings.Repeat(" ", width-len(l.key)) + v + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// tty reports whether w is the terminal among stdout and stderr.
func (f *Fields) tty(w io.Writer) bool {
	switch w {
	case f.ios.Out:
		return f.ios.IsStdoutTTY()
	case f.ios.ErrOut:
		return f.ios.IsStderrTTY()
	}
	return false
}
