package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/godbus/dbus/v5"
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
	// A session bus that starts no service on demand: a Secret Service
	// activated by a call that came too early would be a second, locked
	// one. It prints its address once it listens.
	conf := filepath.Join(dir, "bus.conf")
	ts.Check(os.WriteFile(conf, []byte(busConfig), 0o600))
	bus := exec.Command("dbus-daemon", "--config-file="+conf, "--nofork", "--print-address=1", "--address=unix:tmpdir="+os.TempDir())
	var busErr bytes.Buffer
	bus.Stderr = &busErr
	out, err := bus.StdoutPipe()
	ts.Check(err)
	ts.Check(bus.Start())
	ts.Defer(func() {
		bus.Process.Kill() // the keyring daemon exits with its bus
		bus.Wait()
	})
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		bus.Wait()
		ts.Fatalf("dbus-daemon: %v: %s", err, busErr.Bytes())
	}
	addr = strings.TrimSpace(addr)
	// --daemonize returns once the daemon is on the bus; --unlock creates
	// the login keyring with the password on stdin, unlocked.
	keyring := exec.Command("gnome-keyring-daemon", "--unlock", "--components=secrets", "--daemonize")
	keyring.Env = append(os.Environ(), "HOME="+home, "XDG_RUNTIME_DIR="+run, "DBUS_SESSION_BUS_ADDRESS="+addr)
	keyring.Stdin = strings.NewReader("keyring-password")
	if b, err := keyring.CombinedOutput(); err != nil {
		ts.Fatalf("gnome-keyring-daemon: %v: %s", err, b)
	}
	waitForName(ts, addr, "org.freedesktop.secrets")
	ts.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
}

const busConfig = `<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`

// waitForName waits until a client owns name on the bus: the keyring
// daemon may return before it has taken its name.
func waitForName(ts *testscript.TestScript, addr, name string) {
	conn, err := dbus.Connect(addr)
	ts.Check(err)
	defer conn.Close()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var owned bool
		ts.Check(conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, name).Store(&owned))
		if owned {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("nothing took %s on the bus within 30s", name)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
