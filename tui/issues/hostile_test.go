package issues

import (
	"regexp"
	"testing"
	"unicode/utf8"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/tui/tuitest"
)

// sgr matches the colour sequences the TUI draws itself.
var sgr = regexp.MustCompile("\x1b\\[[0-9;:]*m")

// rawControl names a control of the server's that reached the screen: any
// escape sequence but colour, a C0 control but newline, a C1 or bidi
// control; "" if none.
func rawControl(view string) string {
	for _, r := range sgr.ReplaceAllString(view, "") {
		if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f ||
			r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == utf8.RuneError {
			return string(r)
		}
	}
	return ""
}

// TestHostileIssueIsDrawnSanitized: an issue whose title and body carry
// escape sequences and bidi controls is drawn with them shown, in the list
// and on its page.
func TestHostileIssueIsDrawnSanitized(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	is, err := srv.CreateIssue("alice/webapp", "alice", "\u202eevil\u202c \x1b]0;pwned\a \u009b2J", "body \x1b]52;c;ZXJy\a \u2066x\u2069")
	if err != nil {
		t.Fatal(err)
	}
	ctx := tuitest.Context(t, srv, "alice")
	d := tuitest.Drive(t, NewList(ctx, tuitest.Webapp), 120, 30)
	d.UntilView("<U+202E>evil<U+202C> ^[]0;pwned^G <U+009B>2J")
	if c := rawControl(d.C.View()); c != "" {
		t.Errorf("the list draws %q raw:\n%q", c, d.C.View())
	}
	v := tuitest.Drive(t, NewView(ctx, tuitest.Webapp, &client.Issue{Number: is.Number}), 120, 30)
	v.UntilView("<U+202E>evil<U+202C>", "body ^[]52;c;ZXJy^G <U+2066>x<U+2069>")
	if c := rawControl(v.C.View()); c != "" {
		t.Errorf("the page draws %q raw:\n%q", c, v.C.View())
	}
}
