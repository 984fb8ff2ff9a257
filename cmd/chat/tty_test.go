package chat_test

import (
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/cmd"
	"github.com/forgehq/forge/testkit/tmuxtest"
)

// TestMain lets the test binary run as forge, so tmux can start it on a
// real terminal.
func TestMain(m *testing.M) { tmuxtest.Main(m, cmd.Main) }

// TestTerminalSession holds a session on a real terminal: streaming,
// Ctrl-C during a reply, history on the up arrow, Ctrl-C on a typed line,
// bracketed paste, a line continued with \, the commands, and Ctrl-C on an
// empty line to leave.
func TestTerminalSession(t *testing.T) {
	x, srv := tmuxtest.Chat(t, "chat")
	x.History = 200 // the whole conversation stays in the scrollback
	srv.Agent().SetChunkDelay(15 * time.Millisecond)

	x.Start(120, 50, tmuxtest.ChatEnv(t, srv), "", "chat")

	x.Shows("Ctrl-D or /exit ends the") // wrapped at 120 columns
	x.Keys("Hello there", "Enter")
	s := x.Shows("132 tokens: 6 prompt + 126 reply")
	// Rendered as markdown once each block settles: no ** or backticks
	// left, bullets for the list, lines wrapped to the terminal.
	for _, want := range []string{"You asked about Hello there. This is turn 1", "• Your message has 2 words", "fingerprint is 6000f971,"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}

	// Spaced as the TUI's chat tab: a blank line between the message and
	// its reply, and before the next prompt.
	if !strings.Contains(s, "> Hello there\n\nYou asked about") || !strings.Contains(s, "126 reply\n\n> ") {
		t.Errorf("not spaced as the TUI:\n%s", s)
	}

	// Ctrl-C while the reply streams stops only the reply. The reply
	// holds after "You asked about Tell me more. This", so Ctrl-C comes
	// in its middle however slow the machine.
	release := srv.Agent().HoldAfter(8)
	defer release()
	x.Keys("Tell me more", "Enter")
	x.ShowsTimes("Tell me more", 2)
	x.Keys("C-c")
	s = x.Shows("(reply interrupted; the part received stays in the conversation)")
	release()
	if strings.Contains(s, "The history you sent holds 2 earlier messages") {
		t.Errorf("the reply was not interrupted:\n%s", s)
	}

	// Tab completes commands and model names; the up arrow recalls
	// earlier lines; Ctrl-C clears a typed line.
	// With several choices, Tab lists them.
	x.Keys("/", "Tab")
	x.Shows("/help  /model  /usage  /with  /context  /reset  /exit")
	x.Keys("mo", "Tab")
	x.Shows("> /model ")
	x.Keys("r", "Tab")
	x.Shows("ref-1  ref-1-mini", "> /model ref-1")
	x.Run("send-keys", "-t", "s", "--", "-m", "Tab", "Enter")
	x.Shows("Switched to model ref-1-mini.")
	x.Keys("Up")
	x.ShowsTimes("> /model ref-1-mini", 2)
	x.Keys("C-c")
	x.Shows("(cleared; the up arrow brings it back)")

	// A paste of several lines is one message; so are lines ending in \.
	x.Run("set-buffer", "-b", "p", "pasted one\npasted two")
	x.Run("paste-buffer", "-p", "-b", "p", "-t", "s")
	x.Shows("… pasted two")
	x.Keys("Enter")
	// The interrupted turn stayed in the history: this is turn 3.
	x.ShowsTimes(" tokens: ", 2)
	x.Shows("You asked about pasted one pasted two (turn 3).")
	// The up arrow brings the pasted message back whole, on one line.
	x.Keys("Up")
	x.Shows("> pasted one⏎pasted two")
	x.Keys("C-c")
	x.Shows("(cleared; the up arrow brings it back)")
	x.Keys(`first \`, "Enter")
	x.ShowsTimes("… ", 2)
	x.Keys("second", "Enter")
	x.ShowsTimes(" tokens: ", 3)
	x.Shows("You asked about first second (turn 4).")

	x.Keys("/us", "Tab", "Enter")
	x.Shows("tokens used (tier pro)")
	x.Keys("/nope", "Enter")
	x.Shows("forge: unknown command /nope")

	// Ctrl-C on an empty line asks for a second one (a Ctrl-C meant for
	// a reply that just ended keeps the conversation); the second ends
	// the session, with status 0.
	x.Keys("C-c")
	x.Shows("(press Ctrl-C again or Ctrl-D to leave)")
	x.Keys("C-c")
	if st := x.ExitStatus(); st != "0" {
		t.Errorf("exit status %s", st)
	}
}

// TestBannerWrapsAtSpaces: on a narrow terminal the banner is wrapped at
// spaces, never a word cut in two by the terminal.
func TestBannerWrapsAtSpaces(t *testing.T) {
	x, srv := tmuxtest.Chat(t, "chatnarrow")
	x.Start(60, 20, tmuxtest.ChatEnv(t, srv), "", "chat")
	s := x.Shows("/exit ends the", "session.")
	for _, l := range strings.Split(s, "\n") {
		// Screen joins the lines the terminal wrapped: one longer than
		// the terminal was cut by it.
		if n := len([]rune(l)); n > 60 {
			t.Errorf("a line of %d cells was wrapped by the terminal: %q", n, l)
		}
	}
	x.Keys("C-d")
}
