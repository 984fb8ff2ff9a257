package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/forgehq/forge/testkit/servicefixture"
	"golang.org/x/sys/unix"
)

// onPTY runs forge with stdout and stderr on a new pseudo-terminal, 120
// columns wide, and returns what the terminal received.
func onPTY(t *testing.T, env []string, args ...string) (string, int) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals: %v", err)
	}
	defer master.Close()
	if err := unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 40, Col: 120})
	c := exec.Command("forge", args...)
	c.Env, c.Stdin, c.Stdout, c.Stderr = env, nil, tty, tty
	var screen bytes.Buffer
	read := make(chan struct{})
	go func() { io.Copy(&screen, master); close(read) }() // ends at EIO, once forge has exited
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	c.Wait()
	<-read
	return screen.String(), c.ProcessState.ExitCode()
}

// TestStoredHostileLoginNeverReachesTheTerminal: a hostile service answers
// the login with a login holding escape sequences (title, screen clear,
// clipboard write, a hyperlink), a C1 control and a bidi override. forge
// stores it in the profile; every command that prints it from there, run
// on a real pseudo-terminal, shows it visibly and lets none of it through.
func TestStoredHostileLoginNeverReachesTheTerminal(t *testing.T) {
	s := servicefixture.New(t, servicefixture.Options{Hostile: true, Issues: 1, Repos: 1, Users: 1})
	dir := t.TempDir()
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "FORGE_CONFIG_DIR=" + dir, "TERM=xterm-256color", "NO_COLOR=1"}
	login := exec.Command("forge", "auth", "login", "--base-url", s.BaseURL, "--username", servicefixture.Login, "--password-stdin", "--insecure-storage", "--setup-git=false")
	login.Env, login.Stdin = env, strings.NewReader(servicefixture.Password+"\n")
	if out, err := login.CombinedOutput(); err != nil {
		t.Fatalf("login: %v\n%s", err, out)
	}
	for _, args := range [][]string{
		{"profile", "show"}, {"profile", "list"}, {"auth", "status"}, {"auth", "status", "--all"},
		{"account", "view"},
	} {
		screen, code := onPTY(t, env, args...)
		if !strings.Contains(screen, "alice^[]0;pwned") {
			t.Errorf("forge %s showed no login, or not visibly (exit %d):\n%s", strings.Join(args, " "), code, screen)
		}
		if c, bad := servicefixture.Unsafe(screen); bad {
			t.Errorf("forge %s: %U reached the terminal:\n%q", strings.Join(args, " "), c, screen)
		}
	}
}
