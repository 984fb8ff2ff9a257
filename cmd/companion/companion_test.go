package companion_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/forgehq/forge/cmd"
	"github.com/forgehq/forge/cmd/companion"
	"github.com/forgehq/forge/cmd/companion/companiontest"
	"github.com/forgehq/forge/cmd/withserver"
)

// TestMain lets the test binary be forge or forge-server, by the name of
// the file it runs from (forge-server keeps forge's argv[0]).
func TestMain(m *testing.M) {
	self, _ := os.Executable()
	switch filepath.Base(self) {
	case "forge":
		os.Exit(cmd.Main())
	case companion.Binary:
		os.Exit(withserver.Main())
	}
	os.Exit(m.Run())
}

// install puts the test binary in a new directory as forge and, with
// companion, as forge-server beside it, as packages install them.
func install(t *testing.T, withCompanion bool) string {
	t.Helper()
	if withCompanion {
		return companiontest.Install(t, "forge", companion.Binary)
	}
	return companiontest.Install(t, "forge")
}

// forge is a forge command run from dir, in a working directory outside
// any clone, with a PATH of only the go tool's directory.
func forge(t *testing.T, dir string, args ...string) *exec.Cmd {
	t.Helper()
	c := exec.Command(filepath.Join(dir, "forge"), args...)
	c.Dir = t.TempDir()
	c.Env = append(os.Environ(), "PATH="+goBin(t), "HOME="+t.TempDir(), "XDG_CACHE_HOME="+t.TempDir(), "FORGE_CONFIG_DIR="+t.TempDir())
	return c
}

func goBin(t *testing.T) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool")
	}
	return filepath.Dir(gobin)
}

// TestServe: `forge serve` is forge-server's, in forge's own process: it
// prints the settings, and SIGINT sent to the process forge started as
// stops the server as before.
func TestServe(t *testing.T) {
	t.Parallel()
	dir := install(t, true)
	c := forge(t, dir, "serve", "--addr", "127.0.0.1:0", "--admin-password", "a-long-admin-password")
	stdout, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	c.Stderr = &stderr
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Process.Kill() })
	lines := bufio.NewScanner(stdout)
	var settings []string
	for len(settings) < 4 && lines.Scan() {
		settings = append(settings, lines.Text())
	}
	if len(settings) != 4 || !strings.HasPrefix(settings[0], "FORGE_BASE_URL=http://127.0.0.1:") {
		t.Fatalf("settings %q; stderr:\n%s", settings, stderr.String())
	}
	// ps sees the command line as typed.
	if cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", c.Process.Pid)); err == nil {
		if got, want := string(cmdline), filepath.Join(dir, "forge")+"\x00serve\x00--addr"; !strings.HasPrefix(got, want) {
			t.Errorf("command line %q, want it to start %q", got, want)
		}
	}
	if err := c.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, stdout)
	if err := c.Wait(); err != nil {
		t.Errorf("forge serve after SIGINT: %v\n%s", err, stderr.String())
	}
	for _, want := range []string{"forge: serving http://127.0.0.1:", "forge: site_admin admin, password a-long-admin-password", "forge: stopping\nforge: stopped\n"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
}

// TestHelp: forge's help of serve and demo is forge-server's, whichever
// way it is asked for; forge's own help lists them as before.
func TestHelp(t *testing.T) {
	t.Parallel()
	dir := install(t, true)
	out := func(args ...string) string {
		b, err := forge(t, dir, args...).Output()
		if err != nil {
			t.Fatalf("forge %s: %v", strings.Join(args, " "), err)
		}
		return string(b)
	}
	serve := out("serve", "--help")
	if !strings.Contains(serve, "forge serve [flags]") || !strings.Contains(serve, "--admin-password Password") {
		t.Errorf("forge serve --help:\n%s", serve)
	}
	if help := out("help", "serve"); help != serve {
		t.Errorf("forge help serve differs from forge serve --help:\n%s", help)
	}
	if demo := out("demo", "-h"); !strings.Contains(demo, "forge demo [flags]") || !strings.Contains(demo, "walk through forge's main jobs") {
		t.Errorf("forge demo -h:\n%s", demo)
	}
	root := out("--help")
	for _, want := range []string{companion.Serve.Short, companion.Demo.Short} {
		if !strings.Contains(root, want) {
			t.Errorf("forge --help lacks %q", want)
		}
	}
}

// TestComplete: TAB after `forge serve` offers forge-server's flags.
func TestComplete(t *testing.T) {
	t.Parallel()
	dir := install(t, true)
	got, err := forge(t, dir, "__complete", "serve", "--ad").Output()
	if err != nil {
		t.Fatal(err)
	}
	direct := exec.Command(filepath.Join(dir, companion.Binary), "__complete", "serve", "--ad")
	direct.Env = append(os.Environ(), "HOME="+t.TempDir())
	want, err := direct.Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) || !strings.Contains(string(got), "--admin-password\t") || !strings.HasSuffix(string(got), "\n:4\n") {
		t.Errorf("completions\n%s\nforge-server's\n%s", got, want)
	}
}

// TestNoCompanion: forge without forge-server, outside a clone, says
// where it looked and how to get it, and exits 1 — for the commands and
// for their help.
func TestNoCompanion(t *testing.T) {
	t.Parallel()
	dir := install(t, false)
	want := "forge: forge-server is not installed beside forge (in " + dir + ") nor on the PATH: install a release or package of forge, which ships both, or from a clone run `go build -o " + filepath.Join(dir, "forge-server") + " ./cmd/forge-server`\n"
	for _, args := range [][]string{{"serve"}, {"demo"}, {"serve", "--help"}, {"help", "serve"}, {"help", "demo"}} {
		var stdout, stderr bytes.Buffer
		c := forge(t, dir, args...)
		c.Stdout, c.Stderr = &stdout, &stderr
		err := c.Run()
		if code := c.ProcessState.ExitCode(); code != 1 || stderr.String() != want || stdout.Len() != 0 {
			t.Errorf("forge %s: exit %d (%v), stdout %q, stderr:\n%s\nwant:\n%s", strings.Join(args, " "), code, err, stdout.String(), stderr.String(), want)
		}
	}
}

// TestFromClone: run inside a clone of forge's module (`go run ./cmd/forge
// demo`), forge builds that clone's forge-server and runs it with the
// arguments, its output and exit code passing through. The clone here
// is a module of that path whose forge-server only echoes
// (companiontest.Clone). forge says it is building only when go build has
// work: the second run, with the binary up to date, says nothing, so a
// script's stderr stays quiet too; stdout is the companion's alone both
// times.
func TestFromClone(t *testing.T) {
	t.Parallel()
	dir := install(t, false)
	clone := companiontest.Clone(t, companion.Binary)
	first := forge(t, dir, "demo", "--flag", "x y")
	first.Dir = filepath.Join(clone, "cmd")
	notice := "forge: building forge-server from the clone at " + clone + " (go build ./cmd/forge-server)\n"
	for _, want := range []string{notice, ""} {
		// The same cache directory (XDG_CACHE_HOME) both times.
		c := exec.Command(first.Path, first.Args[1:]...)
		c.Dir, c.Env = first.Dir, first.Env
		code, stdout, stderr := runBuild(t, c)
		if code != 3 || stdout != "the clone's forge-server: demo --flag x y\n" || stderr != want {
			t.Errorf("exit %d, stdout %q, stderr %q, want %q", code, stdout, stderr, want)
		}
	}
}

// TestFromBrokenClone: when the clone's forge-server does not build, forge
// shows go's errors alone (not go build -x's steps) and says what to do,
// exit 1.
func TestFromBrokenClone(t *testing.T) {
	t.Parallel()
	dir := install(t, false)
	clone := companiontest.Clone(t, companion.Binary)
	main := filepath.Join(clone, "cmd", companion.Binary, "main.go")
	if err := os.WriteFile(main, []byte("package main\n\nfunc main() { undefinedName() }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := forge(t, dir, "serve", "--env-file", "forge.env")
	c.Dir = clone
	code, stdout, stderr := runBuild(t, c)
	want := "forge: go build ./cmd/forge-server failed in the clone at " + clone + " (its errors are above): fix them, or run forge outside the clone to use an installed forge-server\n"
	if code != 1 || stdout != "" || !strings.HasPrefix(stderr, "forge: building forge-server from the clone at "+clone) ||
		!strings.Contains(stderr, "undefined: undefinedName") || strings.Contains(stderr, "WORK=") || !strings.HasSuffix(stderr, want) {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
}

// runBuild runs c, a forge that builds a companion, and returns its exit
// code and output; a build that never ends fails the test. The build
// shares the go tool's cache with the test (it is safe for concurrent
// use), so that only the clone's own package is compiled, not the
// standard library again.
func runBuild(t *testing.T, c *exec.Cmd) (code int, stdout, stderr string) {
	t.Helper()
	cache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	c.Env = append(c.Env, "GOCACHE="+strings.TrimSpace(string(cache)))
	var out, errOut bytes.Buffer
	c.Stdout, c.Stderr = &out, &errOut
	done := make(chan error, 1)
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- c.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Minute):
		c.Process.Kill()
		t.Fatal("go build of the clone's forge-server never ended")
	}
	return c.ProcessState.ExitCode(), out.String(), errOut.String()
}
