package frame

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
	"github.com/forgehq/forge/tui/common"
)

func newFrame(w int) *Frame {
	ctx := &common.Context{Width: w, Height: 10, Styles: common.NewStyles(false, true), Keys: common.NewKeyMap(), Profile: "default"}
	f := New(ctx)
	f.SetWidth(w)
	return f
}

func TestCrumbsCutFromTheRight(t *testing.T) {
	f := newFrame(40)
	for _, c := range []struct {
		parts []string
		want  string
	}{
		{[]string{"alice/webapp", "Issues", "#7 A very long title indeed that goes on"}, " alice/webapp › Issues › #7 A very long…"},
		{[]string{"alice/webapp", "Repositories", "Pull requests", "#12 Fix the thing that broke"}, " alice/webapp › … › #12 Fix the thing t…"},
		{[]string{"Repositories"}, " Repositories"},
	} {
		if got := strings.TrimRight(ansi.Strip(f.crumbs(c.parts)), " "); got != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.parts, got, c.want)
		}
	}
}

func TestHelpLineKeepsHelpAndQuit(t *testing.T) {
	f := newFrame(40)
	k := f.ctx.Keys
	got := ansi.Strip(f.helpLine([]key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Refresh}, []key.Binding{k.Help, k.Quit}))
	if !strings.HasSuffix(strings.TrimRight(got, " "), "? help · q quit") || ansi.StringWidth(got) != 40 {
		t.Errorf("the help line: %q", got)
	}
}

func TestTabsNarrow(t *testing.T) {
	names := []string{"Repos", "Issues", "CI", "Images", "Chat", "Account"}
	for w, want := range map[int]string{100: " forge  1 Repos", 60: "1 Repos", 45: " forge  1  2 Issues"} {
		if got := ansi.Strip(newFrame(w).tabBar(names, 1)); !strings.Contains(got, want) || ansi.StringWidth(got) > w {
			t.Errorf("at %d columns: %q", w, got)
		}
	}
}
