package chatview

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/tuitest"
)

// driveChat is the set-up of most chat tests: a chat view of alice's on
// a demo world of the test's own, driven at the size w×h.
func driveChat(t *testing.T, w, h int) (*refserver.Server, *View, *tuitest.Driver) {
	t.Helper()
	srv := tuitest.Server(t)
	v := New(tuitest.Context(t, srv, "alice"))
	return srv, v, tuitest.Drive(t, v, w, h)
}

func TestTurnStreamsAndRenders(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	srv.Agent().SetChunkDelay(2 * time.Millisecond)
	v := New(tuitest.Context(t, srv, "alice"))
	d := tuitest.Drive(t, v, 80, 20)
	d.UntilView("model ref-1 (default)", "0/1,000,000 used (pro)")
	d.Type("Hello there")
	d.Key("enter")
	if v.busy != "reply" {
		t.Fatal("enter did not send")
	}
	// Chunks are drawn as they come: a part of the reply shows before
	// the end.
	d.UntilView("You asked about Hello there")
	view := d.UntilView("reply 132 tokens (6 + 126)", "132/1,000,000 used (pro)")
	// Rendered as markdown: bullets, no ** or backticks.
	for _, want := range []string{"› Hello there", "• Your message has 2 words", "switch models with /model."} {
		if !strings.Contains(view, want) {
			t.Errorf("no %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, "**") || strings.Contains(view, "`") {
		t.Errorf("markdown left raw:\n%s", view)
	}
	if n := len(v.session.History); n != 2 {
		t.Errorf("the session holds %d messages", n)
	}
	// The up arrow on an empty input brings the last message back.
	d.Key("up")
	if v.input.Value() != "Hello there" {
		t.Errorf("recalled %q", v.input.Value())
	}
}

func TestCommands(t *testing.T) {
	t.Parallel()
	_, v, d := driveChat(t, 80, 20)
	d.UntilView("model ref-1 (default)")
	cmd := func(line string, want ...string) {
		t.Helper()
		d.Type(line)
		d.Key("enter")
		d.UntilView(want...)
	}
	cmd("/model ref-1-mini", "Switched to model ref-1-mini.", "model ref-1-mini ·")
	cmd("/usage", "tokens used (tier pro)")
	cmd("/nope", "unknown command /nope")
	cmd("/help", "/reset", "forget the conversation so far")
	cmd("Hi", "You asked about Hi")
	d.Until("the reply's end", func() bool { return v.busy == "" })
	cmd("/reset", "Conversation reset (2 messages forgotten).")
	// A message starting with / is typed with //.
	cmd("//etc/hosts", "You asked about /etc/hosts")
	d.Until("the reply's end", func() bool { return v.busy == "" })

	d.Type("/exit")
	d.Key("enter")
	d.Until("the tab to change back", func() bool {
		return d.Seen(func(m tea.Msg) bool { s, ok := m.(common.SwitchTabMsg); return ok && s.Back })
	})
	if len(v.session.History) != 0 || v.model != "" {
		t.Errorf("/exit left history %d, model %q", len(v.session.History), v.model)
	}
}

func TestEscStopsReply(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	// The reply holds after "You asked about Tell me": esc comes in its
	// middle however slow the machine.
	defer srv.Agent().HoldAfter(5)()
	v := New(tuitest.Context(t, srv, "alice"))
	d := tuitest.Drive(t, v, 80, 20)
	d.Type("Tell me more")
	d.Key("enter")
	d.UntilView("You asked about")
	d.Key("esc")
	view := d.UntilView("(reply interrupted; the part received stays in the conversation)")
	if strings.Contains(view, "switch models with /model") {
		t.Fatalf("the reply was not interrupted:\n%s", view)
	}
	if !v.input.Focused() {
		t.Error("esc during a reply should stop it, not leave the input")
	}
	h := v.session.History
	if len(h) != 2 || !strings.HasSuffix(h[1].Content, " [interrupted]") {
		t.Fatalf("history %+v", h)
	}
	// With no reply running, esc leaves the input; the keys are the
	// program's again.
	d.Key("esc")
	if v.Capturing() {
		t.Error("esc did not leave the input")
	}
	d.Key("i")
	if !v.Capturing() {
		t.Error("i did not come back to the input")
	}
}

func TestNotConfigured(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	ctx := tuitest.ContextWithout(t, srv, "alice", "AGENT_API_KEY", "AGENT_URL")
	v := New(ctx)
	d := tuitest.Drive(t, v, 80, 10)
	view := strings.Join(strings.Fields(d.View()), " ")
	if !strings.Contains(view, "AGENT_API_KEY") || v.Capturing() {
		t.Fatalf("capturing %v:\n%s", v.Capturing(), view)
	}
}
