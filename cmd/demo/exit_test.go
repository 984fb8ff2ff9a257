package demo_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/forgehq/forge/cmd"
	"github.com/forgehq/forge/cmd/companion"
	"github.com/forgehq/forge/cmd/companion/companiontest"
	"github.com/forgehq/forge/cmd/demo"
	"github.com/forgehq/forge/cmd/serve"
	"github.com/forgehq/forge/testkit/tmuxtest"
)

// TestMain lets the test binary be forge-server (the server the demo
// starts) and forge, by the name of the file it runs from
// (companiontest.Install), or forge where tmuxtest asks for it.
func TestMain(m *testing.M) {
	companiontest.Play(map[string]func() int{"forge": cmd.Main, companion.Binary: serve.Main})
	tmuxtest.Main(m, cmd.Main)
}

var dirLine = regexp.MustCompile(`configuration of its own in (\S+)\.$`)

// forgeDemo is `forge demo` run as packages install forge: the test
// binary as forge, with forge-server beside it, its own TMPDIR and
// configuration.
func forgeDemo(t *testing.T) *exec.Cmd {
	t.Helper()
	dir := companiontest.Install(t, "forge", companion.Binary)
	c := exec.Command(filepath.Join(dir, "forge"), "demo")
	c.Dir = t.TempDir()
	c.Env = append(os.Environ(), "TMPDIR="+t.TempDir(), "FORGE_CONFIG_DIR="+t.TempDir())
	return c
}

// startDemo runs `forge demo` as a child process and returns it once the
// demo has said where its directory is, with a channel that receives each
// line of its stderr.
func startDemo(t *testing.T) (*exec.Cmd, string, <-chan string) {
	t.Helper()
	c := forgeDemo(t)
	out, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errOut, err := c.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Process.Kill(); c.Wait() })
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(errOut)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			default:
			}
		}
		close(lines)
	}()
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if m := dirLine.FindStringSubmatch(sc.Text()); m != nil {
			go io.Copy(io.Discard, out) // the rest, so the demo never blocks on the pipe
			return c, m[1], lines
		}
	}
	t.Fatalf("forge demo never said where its directory is (%v)", sc.Err())
	return nil, "", nil
}

// TestDemoRemovesItsDirectoryWhenSignalled: however forge demo is stopped
// (Ctrl-C, a service manager's SIGTERM, a closed terminal's SIGHUP, an
// impatient second signal that ends it at once), its directory, which
// holds a logged-in configuration, is gone, its server too, and forge
// exits 130.
func TestDemoRemovesItsDirectoryWhenSignalled(t *testing.T) {
	for _, signals := range [][]syscall.Signal{
		{syscall.SIGINT},
		{syscall.SIGTERM},
		{syscall.SIGHUP},
		{syscall.SIGINT, syscall.SIGINT},
		{syscall.SIGTERM, syscall.SIGTERM},
		{syscall.SIGHUP, syscall.SIGHUP},
	} {
		t.Run(fmt.Sprint(signals), func(t *testing.T) {
			c, dir, stderr := startDemo(t)
			if _, err := os.Stat(dir); err != nil {
				t.Fatalf("the demo's directory: %v", err)
			}
			srv := serverOf(t, c.Process.Pid)
			for i, s := range signals {
				if i > 0 {
					// The second signal once the first has stopped the
					// step, as a person pressing Ctrl-C again would.
					for l := range stderr {
						if strings.Contains(l, "interrupted") {
							break
						}
					}
				}
				// Until Wait reaps it, an exited process still takes
				// signals without error.
				if err := c.Process.Signal(s); err != nil {
					t.Fatal(err)
				}
			}
			err := c.Wait()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 130 {
				t.Errorf("forge demo ended with %v, want exit status 130", err)
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("%s is still there after %v: %v", dir, signals, err)
			}
			// The demo waited for its server to end before it did.
			if srv != 0 && !gone(srv) {
				t.Errorf("the demo's server (process %d) outlived it", srv)
			}
		})
	}
}

// TestDemoServerEndsWithAKilledDemo: a demo killed outright (SIGKILL),
// which can stop nothing, still takes its server with it: the pipe it
// held as the server's stdin closes, and the server stops.
func TestDemoServerEndsWithAKilledDemo(t *testing.T) {
	c, _, _ := startDemo(t)
	srv := serverOf(t, c.Process.Pid)
	if srv == 0 {
		t.Skip("cannot see the demo's server here")
	}
	if err := c.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	c.Wait()
	waitGone(t, srv)
}

// TestDemoRemovesStaleDirectories: a demo killed where nothing can clean
// up (SIGKILL) leaves its directory; the next demo removes it, and only
// it: not one whose forge still runs, not one without an owner file.
func TestDemoRemovesStaleDirectories(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	ended := exec.Command(os.Args[0], "version")
	ended.Env = append(os.Environ(), tmuxtest.AsForge+"=1")
	if err := ended.Run(); err != nil {
		t.Fatal(err)
	}
	dirs := map[string]string{
		"forge-demo-killed":  fmt.Sprint(ended.Process.Pid),
		"forge-demo-running": fmt.Sprint(os.Getpid()),
		"forge-demo-making":  "",
	}
	for name, pid := range dirs {
		d := filepath.Join(tmp, name)
		if err := os.MkdirAll(filepath.Join(d, "config"), 0o700); err != nil {
			t.Fatal(err)
		}
		if pid != "" {
			if err := os.WriteFile(filepath.Join(d, "forge-demo.pid"), []byte(pid+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	opts, _, stdout, stderr := fastDemo(t, cmd.Run)
	if err := demo.Run(context.Background(), opts); err != nil {
		t.Fatalf("demo: %v\n%s\n%s", err, stdout(), stderr())
	}
	for name := range dirs {
		_, err := os.Stat(filepath.Join(tmp, name))
		if name == "forge-demo-killed" != os.IsNotExist(err) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "forge-demo-*")); len(left) != 2 {
		t.Errorf("left in TMPDIR: %v", left)
	}
}

// TestDemoOnTerminalSaysWhatNext: on a terminal the demo keeps its server
// up until Enter, then ends with the way to a session of one's own.
func TestDemoOnTerminalSaysWhatNext(t *testing.T) {
	x := tmuxtest.New(t, "demo")
	x.History = 200
	tmp := t.TempDir()
	// forge-server on the PATH, run outside forge's clone (where forge
	// would build it from the clone).
	bin := companiontest.Install(t, companion.Binary)
	x.Start(100, 40, []string{"TMPDIR=" + tmp, "FORGE_CONFIG_DIR=" + t.TempDir(), "TERM=xterm-256color", "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")},
		"cd "+t.TempDir(), "demo")
	// The tour at a person's pace, waited for a step at a time.
	x.Shows("$ forge issue create")
	x.Shows("$ forge auth 2fa setup")
	x.Shows("$ forge image push")
	x.Shows("Open forge tui on this server?")
	x.Keys("n", "Enter")
	x.Shows("Press Enter (or Ctrl-C) to stop the server.")
	x.Keys("Enter")
	if code := x.ExitStatus(); code != "0" {
		t.Errorf("exit status %s", code)
	}
	s := x.Screen()
	for _, want := range []string{
		"What next: forge on a server of your own",
		"forge serve --demo --env-file forge.env",
		"echo forge-demo-password | forge auth login --username alice --password-stdin",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the screen lacks %q:\n%s", want, s)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "forge-demo-*")); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

// TestDemoSaysInterruptedOnce: Ctrl-C stops the step running and the demo
// with it; forge says so once, not once for the step and again for the
// demo.
func TestDemoSaysInterruptedOnce(t *testing.T) {
	c := forgeDemo(t)
	var stderr bytes.Buffer
	c.Stderr = &stderr
	out, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Process.Kill() })
	// A step that waits for the CI run: Ctrl-C comes while it runs.
	sc := bufio.NewScanner(out)
	for sc.Scan() && !strings.HasPrefix(sc.Text(), "$ forge run watch") {
	}
	go io.Copy(io.Discard, out)
	if err := c.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err = c.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Errorf("forge demo ended with %v, want exit status 130", err)
	}
	if n := strings.Count(stderr.String(), "forge: interrupted\n"); n != 1 {
		t.Errorf("stderr says interrupted %d times:\n%s", n, stderr.String())
	}
}
