// Package tuitest helps the TUI's tests: a reference server with the demo
// world on a fixed clock, the environment and context of a user of it,
// and a Driver that runs a component's commands the way the program does
// — concurrently, their messages fed back into Update — until a
// condition holds.
//
// Only tests import it.
package tuitest

import (
	"context"
	"github.com/forgehq/forge/client"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
	"github.com/forgehq/forge/tui/common"
	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/static"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// Now is the servers' clock: the demo's records are dated from it and the
// views' relative times computed against it, so what they show is the
// same on every run.
var Now = refservertest.Now

// Webapp is the demo world's alice/webapp, the repository most views are
// tested on.
var Webapp = client.RepoName{Owner: "alice", Name: "webapp"}

// Spinner is the one frame the spinner shows in tests.
const Spinner = "⠿"

// Server starts a reference server with the demo world on the fixed
// clock; CI runs hold still (a tick lasts an hour).
func Server(t testing.TB) *refserver.Server {
	t.Helper()
	return refservertest.DemoWorld(t)
}

// Env is the environment of user working with srv: its REST token, the
// agent's address and key, the registry's credentials (the demo password),
// and a configuration directory of its own.
func Env(t testing.TB, srv *refserver.Server, user string) map[string]string {
	t.Helper()
	return refservertest.Env(t, srv, user)
}

// Client is a REST client of user's on srv: what the service holds, to
// check what a view sent.
func Client(t testing.TB, srv *refserver.Server, user string) *client.Client {
	t.Helper()
	tok, err := srv.Token(user)
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(srv.BaseURL(), tok)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// ContextWithout is user's context (Context) with the variables named
// by keys taken out of its environment: a user not logged in to the
// service, the registry or the agent.
func ContextWithout(t testing.TB, srv *refserver.Server, user string, keys ...string) *common.Context {
	t.Helper()
	env := Env(t, srv, user)
	for _, k := range keys {
		delete(env, k)
	}
	ctx := Context(t, srv, user)
	ctx.Factory = Factory(env)
	return ctx
}

// Factory is a Factory over env, with streams that are not a terminal.
func Factory(env map[string]string) *cmdutil.Factory {
	ios, _, _, _ := iostreams.Test()
	ios.ErrOut = io.Discard
	return cmdutil.New(ios, func(k string) string { return env[k] })
}

// Context is the views' context for user of srv: colour on, a dark
// background, the fixed clock and spinner, an 80×20 view area.
func Context(t testing.TB, srv *refserver.Server, user string) *common.Context {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	c := common.NewContext(ctx, Factory(Env(t, srv, user)), true)
	// The token is user's, as the program learns from the service.
	c.SetAccount(user)
	c.Now = func() time.Time { return Now }
	c.Spinner = Spinner
	c.Width, c.Height = 80, 24
	return c
}

// Driver runs a component as the program would.
type Driver struct {
	t    testing.TB
	C    common.Component
	msgs chan tea.Msg

	mu   sync.Mutex
	seen []tea.Msg // every message the commands produced
}

// Drive starts c at the size w×h: SetSize, then Init's commands.
func Drive(t testing.TB, c common.Component, w, h int) *Driver {
	d := &Driver{t: t, C: c, msgs: make(chan tea.Msg, 256)}
	c.SetSize(w, h)
	d.Run(c.Init())
	return d
}

// Run runs cmd in the background; its messages (and a batch's) are
// delivered to the component by Until.
func (d *Driver) Run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		if batch, ok := msg.(tea.BatchMsg); ok {
			for _, c := range batch {
				d.Run(c)
			}
			return
		}
		if msg != nil {
			d.msgs <- msg
		}
	}()
}

// Send gives the component a message now and runs the command it returns.
func (d *Driver) Send(msg tea.Msg) {
	d.t.Helper()
	d.Run(d.C.Update(msg))
}

// Key sends key presses: names as msg.String() gives them ("enter",
// "ctrl+s", "x") or, for longer text, its characters one by one.
func (d *Driver) Key(keys ...string) {
	d.t.Helper()
	for _, k := range keys {
		d.Send(KeyPress(k))
	}
}

// Type sends each character of s as a key press.
func (d *Driver) Type(s string) {
	for _, r := range s {
		d.Send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// Until feeds the commands' messages to the component until cond holds;
// after 10 seconds the test fails with the component's view.
func (d *Driver) Until(what string, cond func() bool) {
	d.t.Helper()
	deadline := time.After(10 * time.Second)
	for !cond() {
		select {
		case msg := <-d.msgs:
			d.mu.Lock()
			d.seen = append(d.seen, msg)
			d.mu.Unlock()
			d.Run(d.C.Update(msg))
		case <-deadline:
			d.t.Fatalf("waited in vain for %s; the view shows:\n%s", what, d.View())
		}
	}
}

// View is the component's view as plain text.
func (d *Driver) View() string { return ansi.Strip(d.C.View()) }

// UntilView waits until the view, as plain text, contains every one of
// want, and returns it.
func (d *Driver) UntilView(want ...string) string {
	d.t.Helper()
	var view string
	d.Until("the view to show "+strings.Join(want, ", "), func() bool {
		view = d.View()
		for _, w := range want {
			if !strings.Contains(view, w) {
				return false
			}
		}
		return true
	})
	return view
}

// Seen reports whether a message the commands produced satisfies match.
func (d *Driver) Seen(match func(tea.Msg) bool) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, m := range d.seen {
		if match(m) {
			return true
		}
	}
	return false
}

// KeyPress is the key press msg.String() names: "enter", "esc", "ctrl+s",
// "up", or a single character.
func KeyPress(k string) tea.KeyPressMsg {
	special := map[string]tea.KeyPressMsg{
		"enter": {Code: tea.KeyEnter}, "esc": {Code: tea.KeyEscape}, "tab": {Code: tea.KeyTab},
		"shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift}, "backspace": {Code: tea.KeyBackspace},
		"up": {Code: tea.KeyUp}, "down": {Code: tea.KeyDown}, "left": {Code: tea.KeyLeft}, "right": {Code: tea.KeyRight},
		"pgup": {Code: tea.KeyPgUp}, "pgdown": {Code: tea.KeyPgDown}, "home": {Code: tea.KeyHome}, "end": {Code: tea.KeyEnd},
		"space": {Code: tea.KeySpace, Text: " "}, "delete": {Code: tea.KeyDelete},
	}
	if m, ok := special[k]; ok {
		return m
	}
	if mod, rest, ok := strings.Cut(k, "+"); ok && len(rest) > 0 {
		m := KeyPress(rest)
		m.Text = ""
		switch mod {
		case "ctrl":
			m.Mod |= tea.ModCtrl
		case "alt":
			m.Mod |= tea.ModAlt
		}
		return m
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// Image is a small image whose digest is the same on every run: one layer
// holding text, for os/arch.
func Image(t testing.TB, text, os, arch string) v1.Image {
	t.Helper()
	img, err := mutate.AppendLayers(empty.Image, static.NewLayer([]byte(text), types.DockerLayer))
	if err == nil {
		img, err = mutate.ConfigFile(img, &v1.ConfigFile{OS: os, Architecture: arch, RootFS: v1.RootFS{Type: "layers"}})
	}
	if err == nil {
		var cfg *v1.ConfigFile
		if cfg, err = img.ConfigFile(); err == nil {
			layers, _ := img.Layers()
			d, _ := layers[0].DiffID()
			cfg.RootFS.DiffIDs = []v1.Hash{d}
			img, err = mutate.ConfigFile(img, cfg)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// Push pushes img (a v1.Image or a v1.ImageIndex) to srv's registry as
// user's repo:tag (repo without the host, as alice/app).
func Push(t testing.TB, srv *refserver.Server, user, repoTag string, img any) {
	t.Helper()
	ref, err := name.ParseReference(strings.TrimPrefix(srv.URL(), "http://")+"/"+repoTag, name.Insecure)
	if err != nil {
		t.Fatal(err)
	}
	auth := remote.WithAuth(&authn.Basic{Username: user, Password: refserver.DemoPassword})
	switch x := img.(type) {
	case v1.Image:
		err = remote.Write(ref, x, auth)
	case v1.ImageIndex:
		err = remote.WriteIndex(ref, x, auth)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// Index is a two-platform index of Images.
func Index(t testing.TB) v1.ImageIndex {
	t.Helper()
	return mutate.AppendManifests(empty.Index,
		mutate.IndexAddendum{Add: Image(t, "amd64 layer", "linux", "amd64"), Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: "linux", Architecture: "amd64"}}},
		mutate.IndexAddendum{Add: Image(t, "arm64 layer", "linux", "arm64"), Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: "linux", Architecture: "arm64"}}},
	)
}

// Catalog pushes alice's images the catalog views are tested on: img
// (Image "hello" for linux/amd64) as alice/app:1.0 and alice/app:latest,
// and the Index as alice/multi:2. It returns img.
func Catalog(t testing.TB, srv *refserver.Server) v1.Image {
	t.Helper()
	img := Image(t, "hello", "linux", "amd64")
	Push(t, srv, "alice", "alice/app:1.0", img)
	Push(t, srv, "alice", "alice/app:latest", img)
	Push(t, srv, "alice", "alice/multi:2", Index(t))
	return img
}
