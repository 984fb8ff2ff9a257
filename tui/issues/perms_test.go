package issues

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/tuitest"
)

// offers reports whether the view's help line offers a key described as
// desc.
func offers(v *View, desc string) bool {
	for _, b := range v.ShortHelp() {
		if strings.HasPrefix(b.Help().Desc, desc) && b.Enabled() {
			return true
		}
	}
	return false
}

// permsArrived matches the answer that tells a view the caller's rights.
func permsArrived(m tea.Msg) bool {
	r, ok := m.(common.Result[*client.Repo])
	return ok && r.Err == nil
}

func TestViewOffersCloseOnlyToThoseWhoMay(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	// dave may read alice/webapp, not write: he may close only his own
	// issues (#6), not bob's (#4).
	ctx := tuitest.Context(t, srv, "dave")
	ctx.User = "dave"
	v := NewView(ctx, tuitest.Webapp, &client.Issue{Number: 4, Title: "Use structured logging"})
	d := tuitest.Drive(t, v, 80, 20)
	d.UntilView("Switch to log/slog")
	d.Until("the repository's permissions", func() bool { return d.Seen(permsArrived) })
	if offers(v, "close") || offers(v, "reopen") {
		t.Fatalf("dave is offered to close bob's issue: %v", v.ShortHelp())
	}
	for _, g := range v.FullHelp() {
		for _, b := range g {
			if b.Help().Key == "x" {
				t.Fatalf("the help lists x for dave: %v", g)
			}
		}
	}
	d.Key("x")
	d.Until("a note saying who may close it", func() bool {
		return d.Seen(func(m tea.Msg) bool {
			s, ok := m.(common.StatusMsg)
			return ok && !s.Err && strings.Contains(s.Text, "Only the author of #4 or someone with write access")
		})
	})
	if strings.Contains(d.View(), "[y/N]") || d.Seen(func(m tea.Msg) bool { s, ok := m.(common.StatusMsg); return ok && s.Err }) {
		t.Fatalf("x went on to the service:\n%s", d.View())
	}
	if st := issueState(t, tuitest.Context(t, srv, "alice"), 4).State; st != "open" {
		t.Fatalf("#4 is %s", st)
	}

	own := NewView(ctx, tuitest.Webapp, &client.Issue{Number: 6, Title: "Support graceful shutdown", User: client.User{Login: "dave"}})
	d = tuitest.Drive(t, own, 80, 20)
	d.Until("the repository's permissions", func() bool { return d.Seen(permsArrived) })
	if !offers(own, "close") {
		t.Fatalf("dave is not offered to close his own issue: %v", own.ShortHelp())
	}
	d.Key("x")
	d.UntilView("Close #6 Support graceful shutdown? [y/N]")
	d.Key("y")
	d.UntilView("● closed")
	if !offers(own, "reopen") || offers(own, "close") {
		t.Fatalf("a closed issue offers %v", own.ShortHelp())
	}
}
