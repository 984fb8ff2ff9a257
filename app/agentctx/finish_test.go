package agentctx

import (
	"strings"
	"testing"

	"github.com/forgehq/forge/app/redact"
	"github.com/forgehq/forge/chat"
)

func TestFinishMakesTitlesPrintable(t *testing.T) {
	a := &chat.Attachment{Title: "Issue #1: \x1b]0;pwned\x07 title", Sections: []*chat.Section{{Title: "job \x1b[2Jx (failure): log", Lines: []string{"\x1b[31mred\x1b[0m my-held-secret"}}}}
	finish(a, Options{Redactor: redact.New("my-held-secret")})
	if strings.ContainsAny(a.Title+a.Sections[0].Title, "\x1b\x07") {
		t.Errorf("titles keep control characters: %q, %q", a.Title, a.Sections[0].Title)
	}
	if got := a.Sections[0].Lines[0]; got != "red ****" {
		t.Errorf("a log line went as %q, want its colours removed and the secret masked", got)
	}
}

func TestFinishNoRedactStillStripsColours(t *testing.T) {
	a := &chat.Attachment{Sections: []*chat.Section{{Lines: []string{"\x1b[31mred\x1b[0m my-held-secret"}}}}
	finish(a, Options{Redactor: redact.New("my-held-secret"), NoRedact: true})
	if got := a.Sections[0].Lines[0]; got != "red my-held-secret" {
		t.Errorf("--no-redact: a log line went as %q", got)
	}
}
