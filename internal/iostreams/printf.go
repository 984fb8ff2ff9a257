package iostreams

import (
	"fmt"
	"io"

	"github.com/forgehq/forge/internal/text"
)

// Printf, Println and Print write to Out, ErrPrintf, ErrPrintln and
// ErrPrint to ErrOut, as fmt's functions would, with one difference: the format is
// forge's own and trusted, and on a terminal every argument is shown as a
// value from a server, whatever its origin:
//
//	Styled               as it is: forge's own words and colours
//	numbers, bools       as they are
//	error, Lines         text.Sanitize of its text (its lines kept: an
//	                     error's hint on a line of its own, a document)
//	string               text.OneLine, then formatted with its verb: no
//	                     escape, control or bidi reordering, one line
//	anything else        formatted with its verb ([]byte, fmt.Stringer,
//	                     a struct), then text.OneLine
//
// Piped (not a terminal), the arguments are written exactly as fmt writes
// them, so what scripts read does not change. A command prints through
// these instead of fmt.Fprint* on its streams (cmd's
// TestPrintingGoesThroughTheStreams holds it), and cannot forget to
// sanitize. They return the writer's error, which a message to stderr may
// ignore and data on stdout should not.
func (s *IOStreams) Printf(format string, a ...any) error {
	return fprintf(s.Out, s.outTTY, format, a...)
}

// Println writes its arguments to Out as fmt.Fprintln, shown as Printf
// shows them.
func (s *IOStreams) Println(a ...any) error { return fprint(s.Out, s.outTTY, true, a) }

// Print writes its arguments to Out as fmt.Fprint, shown as Printf shows
// them: a view rendered as a Styled is written as it is.
func (s *IOStreams) Print(a ...any) error { return fprint(s.Out, s.outTTY, false, a) }

// ErrPrintf is Printf for ErrOut: its arguments are sanitized when stderr
// is a terminal.
func (s *IOStreams) ErrPrintf(format string, a ...any) error {
	return fprintf(s.ErrOut, s.errTTY, format, a...)
}

// ErrPrintln is Println for ErrOut.
func (s *IOStreams) ErrPrintln(a ...any) error { return fprint(s.ErrOut, s.errTTY, true, a) }

// ErrPrint is Print for ErrOut.
func (s *IOStreams) ErrPrint(a ...any) error { return fprint(s.ErrOut, s.errTTY, false, a) }

// fprintf is fmt.Fprintf with the arguments shown as on a terminal when
// tty (go vet checks its callers' formats as fmt's).
func fprintf(w io.Writer, tty bool, format string, a ...any) error {
	if tty {
		_, err := fmt.Fprintf(w, format, shown(a)...)
		return err
	}
	_, err := fmt.Fprintf(w, format, a...)
	return err
}

// fprint is fmt.Fprint, or fmt.Fprintln when line, with the arguments
// shown as on a terminal when tty.
func fprint(w io.Writer, tty, line bool, a []any) error {
	if tty {
		a = shown(a)
	}
	var err error
	if line {
		_, err = fmt.Fprintln(w, a...)
	} else {
		_, err = fmt.Fprint(w, a...)
	}
	return err
}

// Sprintf is Printf's formatting for a part of a line or a view built
// before it is printed: the arguments are shown as Printf shows them when
// the scheme's stream is a terminal, and the result is Styled.
func (c *ColorScheme) Sprintf(format string, a ...any) Styled {
	if c.tty {
		return Styled(fmt.Sprintf(format, shown(a)...))
	}
	return Styled(fmt.Sprintf(format, a...))
}

// shown are the arguments a as Printf shows them on a terminal.
func shown(a []any) []any {
	out := make([]any, len(a))
	for i, v := range a {
		switch v := v.(type) {
		case Styled, bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, uintptr, float32, float64, nil:
			out[i] = v
		case string:
			out[i] = text.OneLine(v)
		case error:
			out[i] = text.Sanitize(v.Error())
		case Lines:
			out[i] = text.Sanitize(string(v))
		default:
			out[i] = oneLine{v}
		}
	}
	return out
}

// Lines is a value of several lines (a JSON document, a message with a
// hint): Printf shows it on a terminal as text.Sanitize does, its lines
// and tabs kept, where a string argument is put on one line.
type Lines string

// oneLine formats a value with the verb and flags it is printed with, and
// shows the result as text.OneLine.
type oneLine struct{ v any }

func (o oneLine) Format(f fmt.State, verb rune) {
	io.WriteString(f, text.OneLine(fmt.Sprintf(fmt.FormatString(f, verb), o.v)))
}
