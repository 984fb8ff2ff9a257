package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/tuitest"
)

// settle runs the program's commands in the background and feeds their
// messages to a until its frame shows want (commands that wait, like
// ticks, are left to run out).
func settle(tb testing.TB, a *App, cmd tea.Cmd, want string) {
	tb.Helper()
	msgs := make(chan tea.Msg, 64)
	var run func(tea.Cmd)
	run = func(c tea.Cmd) {
		if c == nil {
			return
		}
		go func() {
			m := c()
			if b, ok := m.(tea.BatchMsg); ok {
				for _, c := range b {
					run(c)
				}
				return
			}
			if m != nil {
				msgs <- m
			}
		}()
	}
	run(cmd)
	deadline := time.After(10 * time.Second)
	for !strings.Contains(a.View().Content, want) {
		select {
		case m := <-msgs:
			_, c := a.Update(m)
			run(c)
		case <-deadline:
			tb.Fatalf("never showed %q:\n%s", want, a.View().Content)
		}
	}
}

func benchApp(b *testing.B, o Options) *App {
	b.Helper()
	srv := tuitest.Server(b)
	o.Factory = tuitest.Factory(tuitest.Env(b, srv, "alice"))
	o.Color = true
	a := New(b.Context(), o)
	cmd := a.Init()
	_, c := a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	settle(b, a, tea.Batch(cmd, c), "alice/webapp")
	return a
}

// BenchmarkFirstFrame: from nothing to the first frame, the repository
// list's spinner in place; the list arrives in a command.
func BenchmarkFirstFrame(b *testing.B) {
	f := tuitest.Factory(tuitest.Env(b, tuitest.Server(b), "alice"))
	b.ResetTimer()
	for b.Loop() {
		a := New(b.Context(), Options{Factory: f, Color: true})
		a.Init()
		a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		if v := a.View(); !strings.Contains(v.Content, "Loading your repositories") {
			b.Fatalf("first frame:\n%s", v.Content)
		}
	}
}

// BenchmarkKeyToFrame: a key that changes the view, and the frame drawn
// after it — switching between two loaded tabs, and opening a repository
// (its page draws at once, with a spinner while its issues load).
func BenchmarkKeyToFrame(b *testing.B) {
	b.Run("switch-tab", func(b *testing.B) {
		a := benchApp(b, Options{Repo: tuitest.Webapp})
		press(a, "2")
		settle(b, a, nil, "Issues")
		b.ResetTimer()
		for i := 0; b.Loop(); i++ {
			press(a, string(rune('1'+i%2)))
			a.View()
		}
	})
	b.Run("open-repo", func(b *testing.B) {
		a := benchApp(b, Options{})
		b.ResetTimer()
		for b.Loop() {
			cmd := press(a, "enter")
			// Run the commands that open the page; its loads are left
			// in flight.
			for _, m := range flatten(cmd) {
				a.Update(m)
			}
			if v := a.View().Content; !strings.Contains(v, "Loading issues") {
				b.Fatalf("no spinner:\n%s", v)
			}
			press(a, "esc")
		}
	})
}

// flatten runs the commands a key returned (none of them waits) and keeps
// the messages that open the page.
func flatten(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	select {
	case m := <-done:
		if b, ok := m.(tea.BatchMsg); ok {
			var out []tea.Msg
			for _, c := range b {
				out = append(out, flatten(c)...)
			}
			return out
		}
		switch m.(type) {
		case common.PushMsg, common.RepoChosenMsg:
			return []tea.Msg{m}
		}
	case <-time.After(time.Second):
	}
	return nil
}
