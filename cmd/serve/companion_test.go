package serve

import (
	"context"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/cmd/companion/companiontest"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/refserver"
)

// TestForgeServerLinksNoOtherCommand: forge-server is forge's root and
// `serve` alone: forge's other commands, the demo among them, and the
// terminal UI are forge's, not linked twice; and since serve uses no
// client of the service, it links none of them, nor the Factory that
// builds them (cmdutil: cmdcore is what the root needs), the
// configuration and what that brings (viper, the OS keyring and D-Bus,
// docker's credential configuration, go-containerregistry).
func TestForgeServerLinksNoOtherCommand(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/forgehq/forge/cmd/forge-server").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if notInServer(p) {
			t.Errorf("forge-server links %s", p)
		}
	}
}

// TestForgeServerExecutesNoTemplate: forge-server can execute no
// template (cobra's version, usage or help templates among them), which
// would keep every exported method in the binary: 3.5 MB more.
func TestForgeServerExecutesNoTemplate(t *testing.T) {
	if companiontest.ExecutesTemplates(t, "github.com/forgehq/forge/cmd/forge-server") {
		t.Error("forge-server links text/template's executor: a template is set or executed on its path (rootcmd's --version is cobra's default function for that reason)")
	}
}

// notInServer reports whether forge-server must not link package p.
func notInServer(p string) bool {
	const module = "github.com/forgehq/forge/"
	switch p {
	case module + "cmd", module + "cmd/issue", module + "cmd/demo", module + "cmd/withserver", module + "cmd/auth",
		module + "cmd/companion", module + "app/cmdutil":
		return true
	}
	for _, prefix := range []string{module + "tui", module + "mcpserver", "charm.land/bubbletea",
		module + "config", module + "client", module + "chat", module + "regclient",
		"github.com/spf13/viper", "github.com/zalando/go-keyring", "github.com/godbus/dbus",
		"github.com/docker/cli", "github.com/google/go-containerregistry"} {
		if p == prefix || strings.HasPrefix(p, prefix+"/") {
			return true
		}
	}
	return false
}

// TestServeUntilStdinEOF: with --until-stdin-eof the server stops, as on
// Ctrl-C, when its stdin ends (the demo's lifeline: it ends when the
// forge holding the pipe does). Without it an ended stdin is no reason
// to stop: this package's other tests serve with an empty stdin.
func TestServeUntilStdinEOF(t *testing.T) {
	ios, _, _, errOut := iostreams.Test()
	r, w := io.Pipe()
	ios.In = r
	f := &cmdcore.Globals{IOStreams: ios, Getenv: func(string) string { return "" }}
	opts := &Options{Deps: f.Deps(), Addr: "127.0.0.1:0", AdminUser: "admin", CITick: time.Second, Memory: true, UntilStdinEOF: true}
	ready := make(chan struct{})
	opts.ready = func(*refserver.Server) { close(ready) }
	done := make(chan error, 1)
	go func() { done <- runServe(context.Background(), opts) }()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("serve ended before it listened: %v", err)
	}
	w.Close()
	if err := <-done; err != nil {
		t.Fatalf("serve after stdin ended: %v", err)
	}
	if !strings.HasSuffix(errOut.String(), "forge: stopping\nforge: stopped\n") {
		t.Errorf("stderr:\n%s", errOut)
	}
	if fl := NewCmd(f).Flags().Lookup("until-stdin-eof"); fl == nil || !fl.Hidden {
		t.Errorf("--until-stdin-eof is not a hidden flag: %+v", fl)
	}
}
