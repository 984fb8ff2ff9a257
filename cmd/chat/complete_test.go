package chat

import (
	"context"
	"strings"
	"testing"

	"github.com/forgehq/forge/chat"
	"github.com/forgehq/forge/refserver/refservertest"
)

func TestTabComplete(t *testing.T) {
	t.Parallel()
	srv := refservertest.Start(t)
	s := &chat.Session{Client: chat.New(srv.AgentURL(), srv.AgentKey(), nil, "")}
	tab := tabComplete(completer(context.Background(), s), nil)
	cases := []struct{ line, want string }{
		{"/u", "/usage "},
		{"/e", "/exit "},
		{"/model r", "/model ref-1"},
		{"/model ref-1-", "/model ref-1-mini "},
		{"/w", "/with "},
		{"/with i", "/with issue:"},
		{"/with c", "/with commit:"},
		{"/with issue:1", ""},
		{"/", ""},        // several commands, no common prefix longer than "/"
		{"hello", ""},    // messages are not completed
		{"/usage x", ""}, // nothing after other commands
	}
	for _, c := range cases {
		got, pos, ok := tab(c.line, len(c.line), '\t')
		if (c.want == "") == ok || got != c.want || (ok && pos != len(got)) {
			t.Errorf("Tab on %q: %q %d %v, want %q", c.line, got, pos, ok, c.want)
		}
	}
	// Several choices are shown: the model names, not the command.
	var shown []string
	listing := tabComplete(completer(context.Background(), s), func(c []string) { shown = c })
	listing("/model r", len("/model r"), '\t')
	if strings.Join(shown, " ") != "ref-1 ref-1-mini" {
		t.Errorf("choices shown: %q", shown)
	}
	shown = nil
	listing("/us", 3, '\t')
	if shown != nil {
		t.Errorf("one choice listed: %q", shown)
	}
	if _, _, ok := tab("/u", 2, 'x'); ok {
		t.Error("a key other than Tab completed")
	}
	if _, _, ok := tab("/u and more", 2, '\t'); ok {
		t.Error("Tab in the middle of the line completed")
	}
}
