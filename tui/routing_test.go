package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/config"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/issues"
	"github.com/forgehq/forge/tui/tuitest"
)

// quits reports whether cmd, run, quits the program.
func quits(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, c := range b {
			if quits(c) {
				return true
			}
		}
		return false
	}
	_, ok := msg.(tea.QuitMsg)
	return ok
}

func newApp(t *testing.T, o Options) *App {
	t.Helper()
	env := map[string]string{"FORGE_CONFIG_DIR": t.TempDir(), "FORGE_BASE_URL": "http://127.0.0.1:1/api/v2", "FORGE_TOKEN": "t",
		"AGENT_URL": "http://127.0.0.1:1", "AGENT_API_KEY": "agk_test"}
	if o.Factory == nil {
		o.Factory = tuitest.Factory(env)
	}
	a := New(t.Context(), o)
	a.Init()
	a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	return a
}

func press(a *App, keys ...string) (cmd tea.Cmd) {
	for _, k := range keys {
		_, cmd = a.Update(tuitest.KeyPress(k))
	}
	return cmd
}

func TestTabsSwitch(t *testing.T) {
	a := newApp(t, Options{})
	press(a, "tab")
	if a.stack.Active() != tabIssues {
		t.Fatalf("tab: on %d", a.stack.Active())
	}
	press(a, "shift+tab", "shift+tab")
	if a.stack.Active() != tabAccount {
		t.Fatalf("shift+tab twice: on %d", a.stack.Active())
	}
	press(a, "4")
	if a.stack.Active() != tabImages || a.stack.Previous() != tabAccount {
		t.Fatalf("4: on %d after %d", a.stack.Active(), a.stack.Previous())
	}
	a.Update(common.SwitchTabMsg{Back: true})
	if a.stack.Active() != tabAccount {
		t.Fatalf("back: on %d", a.stack.Active())
	}
	// Each tab's view is made on its first visit only.
	first := a.stack.Tab(tabImages).Views()[0]
	press(a, "4")
	if a.stack.Tab(tabImages).Views()[0] != first {
		t.Fatal("a second visit made the view again")
	}
}

func TestQuitKeys(t *testing.T) {
	a := newApp(t, Options{})
	if !quits(press(a, "q")) {
		t.Fatal("q does not quit")
	}
	// In the chat's input, q is a letter; Ctrl-C still quits.
	press(a, "5")
	if quits(press(a, "q")) {
		t.Fatal("q typed into the chat's input quit")
	}
	// The q typed is not sent: Ctrl-C asks first, and again quits.
	if quits(press(a, "ctrl+c")) {
		t.Fatal("ctrl+c quit without asking, with a message typed")
	}
	if s := ansi.Strip(a.View().Content); !strings.Contains(s, "Quit? Kept for your next forge tui: the chat message you typed.") {
		t.Fatalf("no question:\n%s", s)
	}
	if !quits(press(a, "ctrl+c")) {
		t.Fatal("ctrl+c twice does not quit")
	}
}

func TestEscGoesBack(t *testing.T) {
	a := newApp(t, Options{Repo: tuitest.Webapp, Tab: tabIssues})
	a.Update(common.PushMsg{C: issues.NewView(a.ctx, tuitest.Webapp, &client.Issue{Number: 3, Title: "x"})})
	if n := len(a.stack.Tab(tabIssues).Views()); n != 2 {
		t.Fatalf("%d views", n)
	}
	if s := ansi.Strip(a.View().Content); !strings.Contains(s, "alice/webapp › Issues › #3 x") {
		t.Fatalf("breadcrumb:\n%s", s)
	}
	press(a, "esc")
	if n := len(a.stack.Tab(tabIssues).Views()); n != 1 {
		t.Fatalf("esc left %d views", n)
	}
	// The first view of a tab stays.
	press(a, "esc")
	if n := len(a.stack.Tab(tabIssues).Views()); n != 1 {
		t.Fatalf("esc closed the tab's first view")
	}
}

func TestChoosingRepoResetsRepoTabs(t *testing.T) {
	a := newApp(t, Options{Tab: tabIssues})
	if !strings.Contains(a.View().Content, "No repository chosen yet") {
		t.Fatal("no placeholder without a repository")
	}
	press(a, "3")
	ci := a.stack.Tab(tabCI).Views()[0]
	a.Update(common.RepoChosenMsg{Repo: tuitest.Webapp})
	if a.ctx.Repo != tuitest.Webapp {
		t.Fatal("the repository was not made current")
	}
	if len(a.stack.Tab(tabCI).Views()) != 1 || a.stack.Tab(tabCI).Views()[0] == ci || a.stack.Tab(tabCI).Views()[0].Title() != "Runs" {
		t.Fatal("the CI tab was not made afresh for the repository")
	}
	if len(a.stack.Tab(tabIssues).Views()) != 0 {
		t.Fatal("the Issues tab kept its view of no repository")
	}
	// The repository of the directory does not replace one chosen.
	a.Update(repoFoundMsg{client.RepoName{Owner: "x", Name: "y"}})
	if a.ctx.Repo != tuitest.Webapp {
		t.Fatal("the git remote's repository replaced the chosen one")
	}
}

func TestHelpOverlay(t *testing.T) {
	a := newApp(t, Options{})
	press(a, "?")
	if !a.showHelp || !strings.Contains(a.View().Content, "any key closes") {
		t.Fatal("? shows no help")
	}
	if quits(press(a, "q")) || a.showHelp {
		t.Fatal("q should close the help, not quit")
	}
}

func TestProfileSwitch(t *testing.T) {
	dir := t.TempDir()
	cfg := "current_profile: a\nprofiles:\n  a:\n    base_url: http://127.0.0.1:1/api/v2\n    user: ann\n  b:\n    base_url: http://127.0.0.1:2/api/v2\n    user: ben\n"
	os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(cfg), 0o600)
	env := map[string]string{"FORGE_CONFIG_DIR": dir}
	factory := func(p string) *cmdutil.Factory {
		f := tuitest.Factory(env)
		f.ProfileFlag = p
		return f
	}
	a := newApp(t, Options{Factory: factory(""), NewFactory: factory, Repo: tuitest.Webapp})
	if a.ctx.Profile != "a" || a.ctx.User != "ann" {
		t.Fatalf("profile %s user %s", a.ctx.Profile, a.ctx.User)
	}
	old := a.ctx
	_, cmd := a.Update(common.SwitchProfileMsg{Profile: "b", Save: true})
	if a.ctx.Profile != "b" || a.ctx.User != "ben" || a.ctx.Repo.Name != "" {
		t.Fatalf("after the switch: profile %s user %s repo %v", a.ctx.Profile, a.ctx.User, a.ctx.Repo)
	}
	if a.ctx.NewID() <= old.NewID()-1 {
		t.Fatal("the new context reuses the old one's identifiers")
	}
	// Save makes it the current profile in the file.
	for _, m := range cmd().(tea.BatchMsg) {
		if m != nil {
			m()
		}
	}
	cf, err := config.Load(filepath.Join(dir, "config.yaml"))
	if err != nil || cf.CurrentProfile != "b" {
		t.Fatalf("current profile %q (%v)", cf.CurrentProfile, err)
	}
	// An unknown profile is refused, and nothing changes.
	_, cmd = a.Update(common.SwitchProfileMsg{Profile: "nope"})
	if a.ctx.Profile != "b" {
		t.Fatal("switched to an unknown profile")
	}
	if msg, ok := cmd().(common.StatusMsg); !ok || !msg.Err || !strings.Contains(msg.Text, `unknown profile "nope"`) {
		t.Fatalf("no error: %#v", msg)
	}
}

func TestFrameFitsEverySize(t *testing.T) {
	a := newApp(t, Options{Repo: tuitest.Webapp, Tab: tabIssues})
	for _, size := range [][2]int{{80, 24}, {40, 10}, {20, 5}, {120, 40}, {10, 3}} {
		a.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		lines := strings.Split(a.View().Content, "\n")
		if len(lines) != size[1] {
			t.Errorf("%v: %d lines", size, len(lines))
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > size[0] {
				t.Errorf("%v: a line of %d cells: %q", size, w, ansi.Strip(l))
			}
		}
	}
}

func TestNoColor(t *testing.T) {
	srv := tuitest.Server(t)
	a := live(t, Options{Factory: tuitest.Factory(tuitest.Env(t, srv, "alice")), Repo: tuitest.Webapp, Tab: tabIssues, Color: false}, "Support graceful shutdown")
	settle(t, a, press(a, "j", "enter"), "Started on a branch.")
	v := a.View().Content
	if strings.Contains(v, "38;5;") || strings.Contains(v, "48;5;") || strings.Contains(v, "\x1b[3") {
		t.Fatalf("colour under NO_COLOR: %q", v)
	}
	press(a, "esc")
	// The selected row stays visible: in reverse video.
	if v := a.View().Content; !strings.Contains(v, "\x1b[1;7m▌") {
		t.Fatalf("no reverse-video selection: %q", v)
	}
}

func TestMouseWheelScrolls(t *testing.T) {
	srv := tuitest.Server(t)
	a := live(t, Options{Factory: tuitest.Factory(tuitest.Env(t, srv, "alice")), Repo: tuitest.Webapp, Tab: tabIssues}, "Support graceful shutdown")
	a.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if v := ansi.Strip(a.View().Content); !strings.Contains(v, "▌    #2 Document") {
		t.Fatalf("the wheel did not move down three rows:\n%s", v)
	}
}

// live starts the program's model with its commands running, until its
// frame shows want.
func live(t *testing.T, o Options, want string) *App {
	t.Helper()
	a := New(t.Context(), o)
	cmd := a.Init()
	_, c := a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	settle(t, a, tea.Batch(cmd, c), want)
	return a
}
