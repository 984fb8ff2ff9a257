package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// Builtin for the keyring script:
//
//	secretservice   start a private D-Bus session bus and, on it, GNOME
//	                Keyring's Secret Service with an unlocked login keyring
//	                (both stopped when the script ends); sets
//	                DBUS_SESSION_BUS_ADDRESS, so forge and secret-tool use it
//
// Scripts skip it with [!exec:dbus-daemon] and [!exec:gnome-keyring-daemon].
// testscript passes no DBUS_SESSION_BUS_ADDRESS on from the machine, so
// only a script that starts one ever reaches a real keyring (TestMain).
func init() {
	scriptCmds["secretservice"] = secretServiceCmd
}

func secretServiceCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: secretservice")
	}
	dir := ts.MkAbs("secretservice")
	home, run := filepath.Join(dir, "home"), filepath.Join(dir, "run")
	ts.Check(os.MkdirAll(home, 0o700))
	ts.Check(os.MkdirAll(run, 0o700))
	// The bus prints its address once it listens; until then nothing
	// could connect to it.
	bus := exec.Command("dbus-daemon", "--session", "--nofork", "--print-address=1", "--address=unix:tmpdir="+os.TempDir())
	out, err := bus.StdoutPipe()
	ts.Check(err)
	ts.Check(bus.Start())
	ts.Defer(func() {
		bus.Process.Kill() // the keyring daemon exits with its bus
		bus.Wait()
	})
	addr, err := bufio.NewReader(out).ReadString('\n')
	ts.Check(err)
	addr = strings.TrimSpace(addr)
	// --daemonize returns once the daemon is on the bus; --unlock creates
	// the login keyring with the password on stdin, unlocked.
	keyring := exec.Command("gnome-keyring-daemon", "--unlock", "--components=secrets", "--daemonize")
	keyring.Env = append(os.Environ(), "HOME="+home, "XDG_RUNTIME_DIR="+run, "DBUS_SESSION_BUS_ADDRESS="+addr)
	keyring.Stdin = strings.NewReader("keyring-password")
	if b, err := keyring.CombinedOutput(); err != nil {
		ts.Fatalf("gnome-keyring-daemon: %v: %s", err, b)
	}
	ts.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
}
