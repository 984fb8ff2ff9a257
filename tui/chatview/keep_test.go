package chatview

import (
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/tui/tuitest"
)

// TestCrashMidReply: forge killed while a reply streams loses nothing —
// the next launch has the conversation before it, and the message that
// had no reply back in the input, to send again. Typed text is kept as
// it is typed, in files only the user may read.
func TestCrashMidReply(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	ctx := tuitest.Context(t, srv, "alice")
	v := New(ctx)
	d := tuitest.Drive(t, v, 80, 30)
	d.Type("Hello")
	d.Key("enter")
	d.UntilView("reply 130 tokens")
	srv.Agent().SetChunkDelay(time.Hour) // the reply never comes
	d.Type("Are you there?")
	d.Key("enter")
	d.UntilView("replying · esc stops")

	// A second launch reads the files as they are now.
	again := New(ctx)
	a := tuitest.Drive(t, again, 80, 30)
	view := a.UntilView("You asked about Hello", "This is the conversation of your last session")
	for _, e := range again.entries {
		if e.text == "Are you there?" {
			t.Errorf("the unanswered message is in the conversation:\n%s", view)
		}
	}
	if got := again.input.Value(); got != "Are you there?" {
		t.Errorf("the input holds %q, want the unanswered message", got)
	}
	if n := len(again.session.History); n != 2 {
		t.Errorf("the session holds %d messages", n)
	}

	// What is typed is kept as it is typed, and wins over the message.
	d.Type("half-typed")
	third := New(ctx)
	tuitest.Drive(t, third, 80, 30).UntilView("This is the conversation of your last session")
	if got := third.input.Value(); got != "half-typed" {
		t.Errorf("the input holds %q, want what was typed", got)
	}
	if n := strings.Count(strings.Join(func() []string {
		var out []string
		for _, e := range third.entries {
			out = append(out, e.text)
		}
		return out
	}(), "\n"), "This is the conversation of your last session"); n != 1 {
		t.Errorf("the note is there %d times", n)
	}
}
