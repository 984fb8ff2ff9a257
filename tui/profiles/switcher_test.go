package profiles

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/tuitest"
)

func TestSwitcher(t *testing.T) {
	dir := t.TempDir()
	cfg := "current_profile: production\nprofiles:\n  production:\n    base_url: https://forge.example.com/api/v2\n    user: alice\n  dev:\n    base_url: http://127.0.0.1:8080/api/v2\n"
	os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(cfg), 0o600)
	ctx := tuitest.Context(t, tuitest.Server(t), "alice")
	ctx.Factory = tuitest.Factory(map[string]string{"FORGE_CONFIG_DIR": dir})
	ctx.Profile = "production"
	s := New(ctx)
	s.SetSize(80, 24)
	s.Update(s.Init()())
	if s.table.Len() != 2 {
		t.Fatalf("%d profiles", s.table.Len())
	}
	// The cursor starts on the profile in use.
	if r, _ := s.table.Selected(); r.Key != "production" {
		t.Fatalf("cursor on %q", r.Key)
	}
	if v := s.View(); !strings.Contains(v, "https://forge.example.com") || !strings.Contains(v, "● production") {
		t.Fatalf("view:\n%s", v)
	}
	s.Update(tuitest.KeyPress("k"))
	msg := s.Update(tuitest.KeyPress("u"))()
	if m, ok := msg.(common.SwitchProfileMsg); !ok || m.Profile != "dev" || !m.Save {
		t.Fatalf("u: %#v", msg)
	}
	if msg := s.Update(tuitest.KeyPress("enter"))(); msg != (common.SwitchProfileMsg{Profile: "dev"}) {
		t.Fatalf("enter: %#v", msg)
	}
	if _, ok := s.Update(tuitest.KeyPress("esc"))().(CloseMsg); !ok {
		t.Fatal("esc does not close")
	}
}
