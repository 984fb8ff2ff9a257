package chatview

import (
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/chat"
	"github.com/forgehq/forge/tui/tuitest"
)

// TestQuotaCutReplyRendered: a reply the quota cut inside its markdown
// (an opened ** never closed) is drawn rendered, without raw asterisks.
// The completion allowance is varied so that some cut lands inside bold.
func TestQuotaCutReplyRendered(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	insideBold := 0
	for allowance := 3; allowance < 15; allowance++ {
		ctx := tuitest.Context(t, srv, "alice")
		v := New(ctx)
		d := tuitest.Drive(t, v, 80, 40)
		d.UntilView("model ref-1 (default)")
		// The prompt of a first message costs the same every time: the
		// reply gets allowance tokens.
		if err := srv.Agent().SetUsed(srv.AgentKey(), 1_000_000-promptTokens-allowance); err != nil {
			t.Fatal(err)
		}
		d.Type("**hi** **hi** **hi** **hi**")
		d.Key("enter")
		view := d.UntilView("The reply was cut off")
		reply := v.reply.String() // as it came, before it was closed
		if strings.Count(reply, "**")%2 == 1 {
			insideBold++
			if i := strings.Index(view, "You asked about"); i < 0 || strings.Contains(view[i:], "*") {
				t.Errorf("a reply cut inside bold (%q) is drawn raw:\n%s", reply, view)
			}
		}
	}
	if insideBold == 0 {
		t.Fatal("no cut landed inside bold: the test proves nothing")
	}
}

// promptTokens is what the reference agent counts for the test's first
// message.
const promptTokens = 24

// TestTimeoutSaidInASentence: an agent that never answers is reported
// in one sentence, not in net/http's words.
func TestTimeoutSaidInASentence(t *testing.T) {
	t.Parallel()
	// A hostile agent: it takes the request and never answers.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	stall := make(chan struct{})
	t.Cleanup(func() { close(stall); ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { <-stall; c.Close() }()
		}
	}()
	srv := tuitest.Server(t)
	v := New(tuitest.Context(t, srv, "alice"))
	d := tuitest.Drive(t, v, 80, 20)
	d.UntilView("model ref-1 (default)")
	hc := &http.Client{Transport: &http.Transport{ResponseHeaderTimeout: 200 * time.Millisecond}}
	v.session.Client = chat.New("http://"+ln.Addr().String(), srv.AgentKey(), hc, "forge-test")
	d.Type("hello")
	d.Key("enter")
	view := d.UntilView("did not answer in time")
	if strings.Contains(view, "net/http") || strings.Contains(view, "awaiting") {
		t.Errorf("the raw error is shown:\n%s", view)
	}
}

func TestCloseCut(t *testing.T) {
	for in, want := range map[string]string{
		"You asked about **hi":        "You asked about **hi**",
		"You asked about **":          "You asked about",
		"a *b":                        "a *b*",
		"**a *b":                      "**a *b***",
		"* item one\n* item **two":    "* item one\n* item **two**",
		"see `x*` and **y":            "see `x*` and **y**",
		"run `go":                     "run `go`",
		"```go\nfunc f() {\n\treturn": "```go\nfunc f() {\n\treturn\n```",
		"all closed **here**":         "all closed **here**",
	} {
		if got := closeCut(in); got != want {
			t.Errorf("closeCut(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestChatKeepsPastedTabs: a pasted tab reaches the agent as a tab (Go
// and Makefile indentation), not a space.
func TestChatKeepsPastedTabs(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	v := New(tuitest.Context(t, srv, "alice"))
	d := tuitest.Drive(t, v, 80, 30)
	d.UntilView("model ref-1 (default)")
	d.Send(tea.PasteMsg{Content: "all:\n\tgo build"})
	d.Key("enter")
	d.UntilView("tokens (")
	if h := v.session.History; len(h) == 0 || h[0].Content != "all:\n\tgo build" {
		t.Errorf("the message sent: %+v", h)
	}
}
