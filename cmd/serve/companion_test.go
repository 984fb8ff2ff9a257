package serve

import (
	"context"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/refserver"
)

// TestForgeServerLinksNoOtherCommand: forge-server is forge's root and
// `serve` alone: forge's other commands, the demo among them, and the
// terminal UI are forge's, not linked twice.
func TestForgeServerLinksNoOtherCommand(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/forgehq/forge/cmd/forge-server").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	const module = "github.com/forgehq/forge/"
	for _, p := range strings.Fields(string(out)) {
		switch {
		case p == module+"cmd", p == module+"cmd/issue", p == module+"cmd/demo", p == module+"cmd/withserver",
			p == module+"cmd/auth", strings.HasPrefix(p, module+"tui"), strings.HasPrefix(p, module+"mcpserver"),
			strings.HasPrefix(p, "charm.land/bubbletea"):
			t.Errorf("forge-server links %s", p)
		}
	}
}

// TestServeUntilStdinEOF: with --until-stdin-eof the server stops, as on
// Ctrl-C, when its stdin ends (the demo's lifeline: it ends when the
// forge holding the pipe does); without it an ended stdin is no reason
// to stop.
func TestServeUntilStdinEOF(t *testing.T) {
	ios, _, _, errOut := iostreams.Test()
	r, w := io.Pipe()
	ios.In = r
	f := cmdutil.New(ios, func(string) string { return "" })
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
