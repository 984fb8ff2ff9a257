package iostreams

import (
	"errors"
	"strings"
	"testing"
)

// hostile sets the window title, clears the screen, writes the clipboard
// (OSC 52), sends a C1 CSI and reverses the text after it (U+202E).
const hostile = "x\x1b]0;pwned\x07\x1b[2J\x1b]52;c;ZXJy\x07\u009b31m\u202eevil"

// shownHostile is hostile as text.OneLine shows it.
const shownHostile = "x^[]0;pwned^G^[[2J^[]52;c;ZXJy^G<U+009B>31m<U+202E>evil"

type stringer struct{}

func (stringer) String() string { return hostile }

// TestPrintfShowsArgumentsAsServerValues: on a terminal every argument
// but a Styled or a number is shown neutralised, whatever its type; the
// format and forge's own colours pass.
func TestPrintfShowsArgumentsAsServerValues(t *testing.T) {
	ios, _, out, errOut := Test()
	ios.SetStdoutTTY(true)
	ios.SetStderrTTY(true)
	ios.SetColorEnabled(true)
	cs := ios.ColorScheme()
	ios.Printf("%s %s|%v|%s|%s|%d|%.1f|%t|%q\n", cs.SuccessIcon(), hostile, stringer{}, []byte(hostile),
		errors.New(hostile+"\nhint: line two"), 42, 1.5, true, "a\x1bb")
	want := "\x1b[32m✓\x1b[0m " + shownHostile + "|" + shownHostile + "|" + shownHostile + "|" +
		shownHostile + "\nhint: line two|42|1.5|true|\"a^[b\"\n"
	if out.String() != want {
		t.Errorf("Printf on a terminal:\n got %q\nwant %q", out.String(), want)
	}
	ios.ErrPrintln(cs.Bold(hostile), "multi\nline", Lines("multi\nline\ttab"))
	if want := "\x1b[1m" + shownHostile + "\x1b[0m multi line multi\nline\ttab\n"; errOut.String() != want {
		t.Errorf("ErrPrintln on a terminal:\n got %q\nwant %q", errOut.String(), want)
	}
}

// TestPrintfPipedIsExact: piped, the arguments are written as fmt writes
// them, so what scripts read does not change.
func TestPrintfPipedIsExact(t *testing.T) {
	ios, _, out, errOut := Test()
	cs := ios.ColorScheme()
	ios.Printf("%s %s|%v|%s|%d\n", cs.SuccessIcon(), hostile, stringer{}, errors.New(hostile), 7)
	if want := "✓ " + hostile + "|" + hostile + "|" + hostile + "|7\n"; out.String() != want {
		t.Errorf("Printf piped:\n got %q\nwant %q", out.String(), want)
	}
	ios.ErrPrintf("%s\n", cs.Bold(hostile))
	if want := hostile + "\n"; errOut.String() != want {
		t.Errorf("ErrPrintf piped: got %q, want %q", errOut.String(), want)
	}
}

// TestEachStreamByItsOwnTerminal: stderr on a terminal with stdout
// piped sanitizes what goes to stderr only.
func TestEachStreamByItsOwnTerminal(t *testing.T) {
	ios, _, out, errOut := Test()
	ios.SetStderrTTY(true)
	ios.Println(hostile)
	ios.ErrPrintln(hostile)
	if out.String() != hostile+"\n" || errOut.String() != shownHostile+"\n" {
		t.Errorf("stdout %q (want it exact), stderr %q (want it shown)", out.String(), errOut.String())
	}
}

// TestStyledViewsAreSanitizedWhereTheyAreBuilt: the colour helpers,
// Sprintf and a Doc sanitize what they are given on a terminal, so a
// Styled view carries no escape but forge's own.
func TestStyledViewsAreSanitizedWhereTheyAreBuilt(t *testing.T) {
	ios, _, out, _ := Test()
	ios.SetStdoutTTY(true)
	cs := ios.ColorScheme() // colour off: the helpers still sanitize
	var d Doc
	d.Add(cs.Gray(hostile), "\n")
	d.Printf(cs, "%s %s\n", cs.Bold("title"), hostile)
	d.Add(Join([]Styled{cs.Red(hostile), cs.Sprintf("%s", hostile)}, " • "))
	ios.Print(d.Styled())
	want := shownHostile + "\ntitle " + shownHostile + "\n" + shownHostile + " • " + shownHostile
	if out.String() != want {
		t.Errorf("view:\n got %q\nwant %q", out.String(), want)
	}
	if n := NewColorScheme(true); strings.Contains(string(n.Bold(string(n.Red("x")))), "^[") {
		t.Error("NewColorScheme (a template's, its data sanitized before) sanitized a nested colour")
	}
}
