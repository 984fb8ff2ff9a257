package tui

import (
	"image/color"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/tui/tuitest"
)

// harness runs the whole program at a fixed size and colour profile
// (xterm 256 colours, dark background) against a reference server.
type harness struct {
	t   *testing.T
	srv *refserver.Server
	app *App
	rec *recorder
	tm  *teatest.TestModel
}

// recorder is the program's model as the tests run it: App, keeping the
// frames it draws for the tests to read (the program draws after every
// message).
type recorder struct {
	*App
	mu     sync.Mutex
	screen string
	// marks counts the markMsgs handled; busy is App.Busy as the last
	// frame was drawn.
	marks int
	busy  bool
}

// markMsg marks a point in the messages the test sent: a frame drawn
// once it is handled shows every key sent before it.
type markMsg struct{}

func (r *recorder) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(markMsg); ok {
		r.mu.Lock()
		r.marks++
		r.mu.Unlock()
		return r, nil
	}
	_, cmd := r.App.Update(msg)
	return r, cmd
}

func (r *recorder) View() tea.View {
	v := r.App.View()
	r.mu.Lock()
	r.screen, r.busy = v.Content, r.App.Busy()
	r.mu.Unlock()
	return v
}

// frame is the last frame drawn, the marks handled before it and whether
// a view was waiting for an answer then.
func (r *recorder) frame() (screen string, marks int, busy bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.screen, r.marks, r.busy
}

func start(t *testing.T, srv *refserver.Server, user string, w, h int, o Options) *harness {
	t.Helper()
	return startEnv(t, srv, tuitest.Env(t, srv, user), w, h, o)
}

// startEnv is start with the environment given.
func startEnv(t *testing.T, srv *refserver.Server, env map[string]string, w, h int, o Options) *harness {
	t.Helper()
	o.Factory = tuitest.Factory(env)
	o.NewFactory = func(profile string) *cmdutil.Factory {
		f := tuitest.Factory(env)
		f.ProfileFlag = profile
		return f
	}
	o.Color = true
	o.Now = func() time.Time { return tuitest.Now }
	o.Spinner = &spinner.Spinner{Frames: []string{tuitest.Spinner}, FPS: time.Hour}
	app := New(t.Context(), o)
	rec := &recorder{App: app}
	tm := teatest.NewTestModel(t, rec, teatest.WithInitialTermSize(w, h),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.ANSI256)))
	tm.Send(tea.BackgroundColorMsg{Color: color.Black})
	t.Cleanup(func() {
		tm.Quit()
		tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	})
	return &harness{t: t, srv: srv, app: app, rec: rec, tm: tm}
}

// plain is the last frame without its styling.
func (h *harness) plain() string { return ansi.Strip(h.screen()) }

// said401 says whether a screen shows an HTTP 401 as a number of its own,
// not inside a port of the server's URL (127.0.0.1:42401).
func said401(screen string) bool { return status401.MatchString(screen) }

var status401 = regexp.MustCompile(`\b401\b`)

// screen is the last frame drawn.
func (h *harness) screen() string {
	s, _, _ := h.rec.frame()
	return s
}

// settled waits for a frame drawn after every key sent so far was
// handled, while no view waited for an answer: what the keys lead to is
// all in it.
func (h *harness) settled() string {
	h.t.Helper()
	_, want, _ := h.rec.frame()
	want++
	h.tm.Send(markMsg{})
	deadline := time.Now().Add(tuitest.Patience)
	for {
		s, marks, busy := h.rec.frame()
		if marks >= want && !busy {
			return s
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("the program never settled (busy %v):\n%s", busy, ansi.Strip(s))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// wait polls the frames until one shows every one of want.
func (h *harness) wait(want ...string) string {
	h.t.Helper()
	deadline := time.Now().Add(tuitest.Patience)
	for {
		s := h.plain()
		ok := true
		for _, w := range want {
			if !strings.Contains(s, w) {
				ok = false
			}
		}
		if ok {
			return s
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("the screen never showed %q:\n%s", want, s)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// gone polls the frames until none shows text.
func (h *harness) gone(text string) {
	h.t.Helper()
	deadline := time.Now().Add(tuitest.Patience)
	for strings.Contains(h.plain(), text) {
		if time.Now().After(deadline) {
			h.t.Fatalf("the screen still shows %q:\n%s", text, h.plain())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// keys types keys, waiting after each until the program has drawn a
// frame for it.
func (h *harness) keys(keys ...string) {
	for _, k := range keys {
		h.tm.Send(tuitest.KeyPress(k))
	}
}

var port = regexp.MustCompile(`127\.0\.0\.1:\d+`)

// golden compares the frame with the golden files: as plain text (to
// read), and with its styling (ANSI 256 colours, dark background).
func (h *harness) golden() {
	h.t.Helper()
	screen := h.settled()
	screen = port.ReplaceAllStringFunc(screen, func(s string) string {
		return "127.0.0.1:" + strings.Repeat("x", len(s)-len("127.0.0.1:"))
	})
	if lines := strings.Split(screen, "\n"); len(lines) != h.app.ctx.Height {
		h.t.Errorf("the frame has %d lines for a %d-line terminal", len(lines), h.app.ctx.Height)
	}
	for i, l := range strings.Split(screen, "\n") {
		if w := ansi.StringWidth(l); w != h.app.ctx.Width {
			h.t.Errorf("line %d is %d cells wide in a %d-cell terminal: %q", i+1, w, h.app.ctx.Width, ansi.Strip(l))
		}
	}
	h.t.Run("plain", func(t *testing.T) { golden.RequireEqual(t, ansi.Strip(screen)) })
	h.t.Run("ansi256", func(t *testing.T) { golden.RequireEqual(t, screen) })
}

func TestGoldenPlaceholderBeforeSize(t *testing.T) {
	a := New(t.Context(), Options{Factory: tuitest.Factory(map[string]string{"FORGE_CONFIG_DIR": t.TempDir()})})
	if v := a.View(); v.Content != "forge: starting…" || !v.AltScreen {
		t.Fatalf("before the size: %+v", v)
	}
}

func TestGoldenRepos(t *testing.T) {
	t.Parallel()
	h := start(t, tuitest.Server(t), "alice", 80, 24, Options{})
	h.wait("alice/webapp", "alice/infra")
	h.golden()
}

func TestGoldenRepoPage(t *testing.T) {
	t.Parallel()
	h := start(t, tuitest.Server(t), "alice", 80, 24, Options{})
	h.wait("alice/webapp")
	h.keys("enter")
	h.wait("Support graceful shutdown", "Repositories › alice/webapp")
	h.golden()
}

func TestGoldenIssue(t *testing.T) {
	t.Parallel()
	h := start(t, tuitest.Server(t), "alice", 80, 24, Options{Repo: tuitest.Webapp, Tab: tabIssues})
	h.wait("Use structured logging")
	h.keys("j", "enter")
	h.wait("Switch to log/slog", "Started on a branch.")
	h.golden()
}

func TestGoldenRuns(t *testing.T) {
	t.Parallel()
	h := start(t, tuitest.Server(t), "alice", 80, 24, Options{Repo: tuitest.Webapp, Tab: tabCI})
	h.wait("CI on slog", "3 unfinished")
	h.golden()
}

func TestGoldenJobsAndLog(t *testing.T) {
	t.Parallel()
	h := start(t, tuitest.Server(t), "alice", 80, 24, Options{Repo: tuitest.Webapp, Tab: tabCI})
	h.wait("CI on router")
	h.keys("j", "j", "j", "enter")
	h.wait("cancelled · pull_request on router")
	t.Run("jobs", func(t *testing.T) { h.t = t; h.golden() })
	h.keys("enter")
	h.wait("build · ", "lines 1–")
	t.Run("log", func(t *testing.T) { h.t = t; h.golden() })
}

func TestGoldenImages(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	tuitest.Catalog(t, srv)
	h := start(t, srv, "alice", 80, 24, Options{Tab: tabImages})
	h.wait("alice/multi")
	h.keys("enter")
	h.wait("alice/app · 2 tags")
	t.Run("tags", func(t *testing.T) { h.t = t; h.golden() })
	h.keys("esc", "j", "enter")
	h.wait("alice/multi · 1 tag")
	h.keys("enter")
	h.wait("linux/arm64")
	t.Run("index", func(t *testing.T) { h.t = t; h.golden() })
}

func TestGoldenChat(t *testing.T) {
	t.Parallel()
	h := start(t, tuitest.Server(t), "alice", 80, 24, Options{Tab: tabChat})
	h.wait("model ref-1 (default)", "used (pro)")
	for _, r := range "Hello **there**" {
		h.tm.Send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	h.keys("enter")
	h.wait("switch models with /model.", "reply 136 tokens")
	h.golden()
}

func TestGoldenAccount(t *testing.T) {
	t.Parallel()
	h := start(t, tuitest.Server(t), "alice", 80, 24, Options{Tab: tabAccount})
	h.wait("alice (Alice Martin)", "Registry")
	h.golden()
}

func TestGoldenHelp(t *testing.T) {
	t.Parallel()
	h := start(t, tuitest.Server(t), "alice", 80, 24, Options{Repo: tuitest.Webapp, Tab: tabIssues})
	h.wait("Support graceful shutdown")
	h.keys("?")
	s := h.wait("Keys: Issues", "any key closes")
	// Every key of the view and of the program is listed.
	for _, want := range []string{"new issue", "state: open/closed/all", "filter", "next tab", "go to tab", "profiles", "quit", "back", "refresh"} {
		if !strings.Contains(s, want) {
			t.Errorf("the help lacks %q", want)
		}
	}
	h.golden()
	h.keys("x")
	h.gone("any key closes")
}

func TestGoldenNoRepo(t *testing.T) {
	t.Parallel()
	h := start(t, tuitest.Server(t), "alice", 80, 24, Options{Tab: tabCI})
	h.wait("No repository chosen yet.")
	h.golden()
}

func TestGoldenProfiles(t *testing.T) {
	t.Parallel()
	srv := tuitest.Server(t)
	h := start(t, srv, "alice", 80, 24, Options{})
	dir := h.app.ctx.Factory.Getenv("FORGE_CONFIG_DIR")
	cfg := "current_profile: production\nprofiles:\n  production:\n    base_url: https://forge.example.com/api/v2\n    user: alice\n  dev:\n    base_url: " + srv.BaseURL() + "\n    user: alice\n"
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	h.wait("alice/webapp")
	h.keys("P")
	h.wait("Profiles", "production", "https://forge.example.com")
	h.golden()
}

func TestGoldenNarrow(t *testing.T) {
	t.Parallel()
	h := start(t, tuitest.Server(t), "alice", 50, 14, Options{Repo: tuitest.Webapp, Tab: tabIssues})
	h.wait("Support graceful")
	h.golden()
}
