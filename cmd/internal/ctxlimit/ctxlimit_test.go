package ctxlimit_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/chat"
	"github.com/forgehq/forge/cmd/internal/ctxlimit"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/testkit/clitest"
	"github.com/spf13/cobra"
)

// tokens parses args as a command with the flag would and returns the cap
// for a profile whose config file sets setting ("" for none).
func tokens(t *testing.T, setting string, args ...string) (int, error) {
	t.Helper()
	h := clitest.New(t)
	if r := h.Run(clitest.Run{}, "profile", "add", "local", "--base-url", h.Srv.BaseURL()); r.Code != 0 {
		t.Fatalf("profile add: %s", r.Output())
	}
	if setting != "" {
		file := filepath.Join(h.Env["FORGE_CONFIG_DIR"], "config.yaml")
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, append(b, "    chat_context_limit: "+setting+"\n"...), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ios, _, _, _ := iostreams.Test()
	f := cmdutil.New(ios, func(k string) string { return h.Env[k] })
	var l ctxlimit.Flag
	cmd := &cobra.Command{Use: "x"}
	l.Add(cmd, "the context")
	if err := cmd.ParseFlags(args); err != nil {
		t.Fatal(err)
	}
	if err := l.Check(cmd); err != nil {
		return 0, err
	}
	return l.Tokens(f)
}

func TestTokens(t *testing.T) {
	for _, c := range []struct {
		setting string
		args    []string
		want    int
	}{
		{"", nil, chat.DefaultContextLimit},
		{"500", nil, 500},
		{"500", []string{"--context-limit", "100000"}, 100000},
		{"", []string{"--context-limit", "7"}, 7},
	} {
		if n, err := tokens(t, c.setting, c.args...); err != nil || n != c.want {
			t.Errorf("setting %q, flags %q: %d, %v; want %d", c.setting, c.args, n, err, c.want)
		}
	}
}

func TestRefusals(t *testing.T) {
	for _, c := range []struct {
		setting string
		args    []string
		want    string
	}{
		{"", []string{"--context-limit", "0"}, "--context-limit must be a positive number of tokens, not 0"},
		{"lots", nil, `the profile "local" sets chat_context_limit to lots in the config file; it must be a positive number of tokens`},
		{"-3", nil, "it must be a positive number of tokens"},
	} {
		_, err := tokens(t, c.setting, c.args...)
		if err == nil || cmdcore.ExitCode(err) != 2 || !strings.Contains(err.Error(), c.want) {
			t.Errorf("setting %q, flags %q: %v (exit %d); want a usage error saying %q", c.setting, c.args, err, cmdcore.ExitCode(err), c.want)
		}
	}
}
