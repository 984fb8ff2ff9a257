package tui_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/cmd"
	tui "github.com/forgehq/forge/cmd/tui"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/tui/common"
)

// TestPrintConfig: forge tui --print-config prints the settings in
// effect — the file's over the defaults — without a terminal; a bad tui
// section fails naming the file and the choices.
func TestPrintConfig(t *testing.T) {
	dir := t.TempDir()
	cfg := "tui:\n  theme: light\n  keys:\n    browse: [w, O]\n  filters:\n    issues: {m: alice}\n"
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	ios, _, out, errOut := iostreams.Test()
	f := cmdutil.New(ios, func(k string) string {
		if k == "FORGE_CONFIG_DIR" {
			return dir
		}
		return ""
	})
	if code := cmd.Run(context.Background(), f, []string{"tui", "--print-config"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"theme: light", `browse: ["w", "O"]  # open in the web browser`, `quit: ["q"]`, `"m": "alice"`, `"f": "fail"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte("tui:\n  theme: neon\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ios, _, _, errOut = iostreams.Test()
	f = cmdutil.New(ios, f.Getenv) // a Factory reads the file once
	if code := cmd.Run(context.Background(), f, []string{"tui", "--print-config"}); code != 1 || !strings.Contains(errOut.String(), `config.yaml: tui.theme "neon": choose one of auto, dark, light, high-contrast`) {
		t.Errorf("exit %d: %s", code, errOut)
	}
	// A key given to two things: one would never work, so it is refused.
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte("tui:\n  keys:\n    refresh: [j]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ios, _, _, errOut = iostreams.Test()
	f = cmdutil.New(ios, f.Getenv)
	if code := cmd.Run(context.Background(), f, []string{"tui", "--print-config"}); code != 1 || !strings.Contains(errOut.String(), `config.yaml: tui.keys: "j" is both down's key and refresh's, and only one of them would work`) {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

// TestHelpListsEveryKey: forge tui --help (and so the man page and the
// reference under docs/) lists every key the views share, as the help
// overlay names it, with the name tui.keys rebinds it by.
func TestHelpListsEveryKey(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	long := tui.NewCmd(cmdutil.New(ios, func(string) string { return "" })).Long
	km := common.NewKeyMap()
	for _, a := range km.Actions() {
		h := a.Binding.Help()
		if line := fmt.Sprintf("  %-11s %s (%s)\n", h.Key, h.Desc, a.Name); !strings.Contains(long, line) {
			t.Errorf("forge tui --help lacks %q", line)
		}
	}
}
