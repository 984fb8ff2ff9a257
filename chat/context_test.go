package chat_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/forgehq/forge/chat"
)

// TestSessionSendsAttachedContextOnce: an attachment goes with the next
// message only, stays in the history after it, and /context and /usage
// say what it cost.
func TestSessionSendsAttachedContextOnce(t *testing.T) {
	t.Parallel()
	_, c := server(t)
	ctx := context.Background()
	s := &chat.Session{Client: c, Model: "ref-1-mini"}
	s.Attach = func(_ context.Context, ref string) (*chat.Attachment, error) {
		return &chat.Attachment{Ref: ref, Title: "Issue #1: Crash", Sections: []*chat.Section{{Lines: []string{"it crashes", "on empty input"}}}}, nil
	}
	cmd := func(line string) string {
		var b strings.Builder
		if err := s.Command(ctx, line, &b); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		return b.String()
	}
	if got := cmd("/with issue:1"); !strings.HasPrefix(got, "Attached issue:1 (Issue #1: Crash, about ") {
		t.Errorf("/with: %q", got)
	}
	if got := cmd("/context"); !strings.Contains(got, "issue:1") || !strings.Contains(got, "goes with your next message") {
		t.Errorf("/context before sending: %q", got)
	}
	var reply strings.Builder
	if _, err := s.Turn(ctx, "what now?", func(d string) { reply.WriteString(d) }); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(reply.String(), "You asked about **what now?**") || !strings.Contains(reply.String(), "You attached `issue:1` (Issue #1: Crash): 3 lines, ending with `on empty input`.") {
		t.Errorf("reply: %s", reply.String())
	}
	sent := s.History[0].Content
	if !strings.HasPrefix(sent, "```forge-context issue:1\nIssue #1: Crash\n") || !strings.HasSuffix(sent, "```\n\nwhat now?") {
		t.Errorf("the message as sent: %q", sent)
	}
	if s.LastContextTokens == 0 {
		t.Error("LastContextTokens is 0 after a message with context")
	}
	// The next message goes without it.
	if _, err := s.Turn(ctx, "and then?", func(string) {}); err != nil {
		t.Fatal(err)
	}
	if s.History[2].Content != "and then?" || s.LastContextTokens != 0 {
		t.Errorf("the second message: %q (context %d tokens)", s.History[2].Content, s.LastContextTokens)
	}
	if got := cmd("/context"); !strings.Contains(got, "(sent)") {
		t.Errorf("/context after sending: %q", got)
	}
	if got := cmd("/usage"); !strings.Contains(got, "Attached context in this session: ") || !strings.Contains(got, "(issue:1 ") {
		t.Errorf("/usage: %q", got)
	}
	cmd("/reset")
	if got := cmd("/context"); !strings.HasPrefix(got, "Nothing attached.") {
		t.Errorf("/context after /reset: %q", got)
	}
}

// TestSessionCutsContextToTheQuota: the key's remaining quota, less the
// reply's reserve, bounds the context; with no room nothing is sent and
// the attachment waits.
func TestSessionCutsContextToTheQuota(t *testing.T) {
	t.Parallel()
	srv, c := server(t)
	ctx := context.Background()
	var log []string
	for i := 1; i <= 500; i++ {
		log = append(log, fmt.Sprintf("step %d of the build went fine", i))
	}
	log = append(log, "error: the last line")
	var notes []string
	s := &chat.Session{Client: c, Model: "ref-1-mini", Notify: func(n string) { notes = append(notes, n) }}
	s.AttachContext(&chat.Attachment{Ref: "run:1", Title: "CI run 1", Sections: []*chat.Section{{Title: "job test (failure): log", Lines: log, KeepTail: true}}})
	if err := srv.Agent().SetQuota(srv.AgentKey(), 3000); err != nil {
		t.Fatal(err)
	}
	u, err := s.Turn(ctx, "why?", func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	if u.PromptTokens > 3000-chat.ReplyReserve || u.PromptTokens < 1000 {
		t.Errorf("prompt took %d tokens; want the context cut to about %d", u.PromptTokens, 3000-chat.ReplyReserve)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "lines from the top of job test (failure): log") {
		t.Errorf("notes: %q", notes)
	}
	if sent := s.History[0].Content; !strings.Contains(sent, "error: the last line\n```") || strings.Contains(sent, "step 1 of the build") {
		t.Errorf("the log kept the wrong end: %.200q", sent)
	}
	// No room left: an error before anything is sent.
	s.AttachContext(&chat.Attachment{Ref: "run:2", Title: "CI run 2", Sections: []*chat.Section{{Lines: log, KeepTail: true}}})
	before := len(s.History)
	if _, err := s.Turn(ctx, "and this one?", func(string) {}); !errors.Is(err, chat.ErrNoRoomForContext) || len(s.History) != before {
		t.Errorf("Turn with no room: %v, history %d -> %d", err, before, len(s.History))
	}
	if len(s.Pending()) != 1 {
		t.Error("the attachment that could not go is no longer pending")
	}
}
