package tui_test

import (
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/forgehq/forge/testkit/tmuxtest"
)

// TestSignalsRestoreTheTerminal: SIGTERM (kill), SIGHUP (the terminal
// closed) and SIGINT (kill -INT) end forge tui at once, every time, with
// the terminal restored (no alternate screen, no mouse tracking) and the
// typed message kept for the next launch. Twenty launches: the program's
// own signal handler used to race forge's and hang the exit.
func TestSignalsRestoreTheTerminal(t *testing.T) {
	t.Parallel()
	srv, token := tmuxtest.DemoWorld(t)
	env := append(tmuxtest.Env(t, srv, token), "HOME="+t.TempDir())
	sigs := []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP}
	for i := range 20 {
		sig := sigs[i%len(sigs)]
		if i == 19 {
			sig = syscall.SIGINT
		}
		x := tmuxtest.New(t, fmt.Sprintf("tuisig%d", i))
		x.Start(80, 24, env, "echo shell before", "tui", "--tab", "chat")
		if i > 0 {
			// The message typed before the last signal is back.
			x.Shows("model ref-1 (default)", fmt.Sprintf("draft %d", i-1))
			for range len(fmt.Sprintf("draft %d", i-1)) {
				x.Keys("BSpace")
			}
		}
		x.Shows("model ref-1 (default)")
		x.Keys(fmt.Sprintf("draft %d", i))
		x.Shows(fmt.Sprintf("draft %d", i))
		if err := syscall.Kill(forgePID(t, x), sig); err != nil {
			t.Fatal(err)
		}
		if st := x.ExitStatus(); st != "130" {
			t.Errorf("%v: exit status %s", sig, st)
		}
		if alt, mouse := x.Flag("alternate_on"), x.Flag("mouse_any_flag")+x.Flag("mouse_button_flag")+x.Flag("mouse_standard_flag"); alt != "0" || mouse != "000" {
			t.Errorf("%v: after the exit, alternate screen %s, mouse tracking %s", sig, alt, mouse)
		}
		if s := x.Screen(); !strings.Contains(s, "shell before") {
			t.Errorf("%v: the screen after the exit:\n%s", sig, s)
		}
		x.Run("kill-server")
	}
}

// forgePID is the process id of forge in x's pane.
func forgePID(t *testing.T, x *tmuxtest.Term) int {
	t.Helper()
	out, err := exec.Command("pgrep", "-P", x.Flag("pane_pid")).Output()
	if err != nil {
		t.Fatalf("forge's process: %v", err)
	}
	pid, err := strconv.Atoi(strings.Fields(string(out))[0])
	if err != nil {
		t.Fatal(err)
	}
	return pid
}
