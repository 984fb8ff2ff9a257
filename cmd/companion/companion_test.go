package companion_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/cmd"
	"github.com/forgehq/forge/cmd/companion"
	"github.com/forgehq/forge/cmd/companion/companiontest"
	"github.com/forgehq/forge/cmd/companion/helptext"
	"github.com/forgehq/forge/cmd/serve"
	"github.com/forgehq/forge/internal/build"
	"github.com/forgehq/forge/internal/iostreams"
)

// TestMain lets the test binary be forge or forge-server, by the name of
// the file it runs from (forge-server keeps forge's argv[0]).
func TestMain(m *testing.M) {
	companiontest.Play(map[string]func() int{"forge": cmd.Main, companion.Binary: serve.Main})
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

// TestHelp: forge's help of serve is forge-server's, whichever way it is
// asked for, exit 0; forge's own help lists it as before. The demo's is
// forge's own.
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
	for _, want := range []string{helptext.Serve.Short, "Tour forge's main jobs on a throw-away reference server"} {
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
// where it looked and how to get it, and exits 1 — for serve and the demo,
// and for serve's help.
func TestNoCompanion(t *testing.T) {
	t.Parallel()
	dir := install(t, false)
	want := "forge: forge-server is not installed beside forge (in " + dir + ") nor on the PATH: install a release or package of forge, which ships both, or from a clone run `go build -o " + filepath.Join(dir, "forge-server") + " ./cmd/forge-server`\n"
	for _, args := range [][]string{{"serve"}, {"demo"}, {"serve", "--help"}, {"help", "serve"}} {
		var stdout, stderr bytes.Buffer
		c := forge(t, dir, args...)
		c.Stdout, c.Stderr = &stdout, &stderr
		err := c.Run()
		if code := c.ProcessState.ExitCode(); code != 1 || stderr.String() != want || stdout.Len() != 0 {
			t.Errorf("forge %s: exit %d (%v), stdout %q, stderr:\n%s\nwant:\n%s", strings.Join(args, " "), code, err, stdout.String(), stderr.String(), want)
		}
	}
}

// TestHelpReturnsItsExitCode: `forge help serve` without forge-server
// returns its exit code to forge's main, as a command's error does; run
// in this process, a library that ended the process would end the test.
func TestHelpReturnsItsExitCode(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Chdir(t.TempDir()) // outside forge's clone, where forge would build forge-server
	ios, _, out, errOut := iostreams.Test()
	f := cmdutil.New(ios, func(string) string { return "" })
	code := cmd.Run(context.Background(), f, []string{"help", "serve"})
	if code != 1 || out.Len() != 0 || !strings.HasPrefix(errOut.String(), "forge: forge-server is not installed beside forge") || strings.Count(errOut.String(), "\n") != 1 {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}

// TestStrangersCloneIsNeverBuilt: in a tree whose go.mod names forge's
// module but which forge was not built from (a stranger's "clone"), forge
// without an installed forge-server neither builds nor runs the tree's
// cmd/forge-server: it says the companion is missing, as anywhere else.
func TestStrangersCloneIsNeverBuilt(t *testing.T) {
	t.Parallel()
	dir := install(t, false)
	clone := companiontest.Clone(t, companion.Binary)
	want := "forge: forge-server is not installed beside forge (in " + dir + ") nor on the PATH: install a release or package of forge, which ships both, or from a clone run `go build -o " + filepath.Join(dir, "forge-server") + " ./cmd/forge-server`\n"
	for _, args := range [][]string{{"serve"}, {"demo"}, {"help", "serve"}, {"__complete", "serve", "--ad"}} {
		c := forge(t, dir, args...)
		c.Dir = filepath.Join(clone, "cmd")
		code, stdout, stderr := runBuild(t, c)
		if args[0] == "__complete" {
			// TAB offers nothing.
			if code != 0 || stdout != ":4\n" {
				t.Errorf("forge %s: exit %d, stdout %q, stderr %q", strings.Join(args, " "), code, stdout, stderr)
			}
		} else if code != 1 || stdout != "" || stderr != want {
			t.Errorf("forge %s: exit %d, stdout %q, stderr %q", strings.Join(args, " "), code, stdout, stderr)
		}
		if companiontest.Ran(clone) {
			t.Fatalf("forge %s ran the clone's forge-server", strings.Join(args, " "))
		}
		if _, err := os.Stat(filepath.Join(envOf(c, "XDG_CACHE_HOME"), "forge", "companion")); err == nil {
			t.Errorf("forge %s built something into its cache", strings.Join(args, " "))
		}
	}
}

// envOf is the value c's environment gives name.
func envOf(c *exec.Cmd, name string) string {
	v := ""
	for _, kv := range c.Env {
		if val, ok := strings.CutPrefix(kv, name+"="); ok {
			v = val
		}
	}
	return v
}

// TestOtherVersionRefused: a forge-server of another version, beside forge
// or on the PATH, is not run: forge says whose versions differ and how to
// install the two together, in one line, exit 1.
func TestOtherVersionRefused(t *testing.T) {
	t.Parallel()
	clone := companiontest.Clone(t, companion.Binary)
	bi, _ := debug.ReadBuildInfo()
	ours := build.Stamp(bi)
	for _, where := range []string{"beside", "PATH"} {
		dir := install(t, false)
		companionDir := dir
		if where == "PATH" {
			companionDir = t.TempDir()
		}
		goBuild(t, clone, filepath.Join(companionDir, companion.Binary), "-ldflags=-X github.com/forgehq/forge/internal/build.Version=0.9.0", "./cmd/forge-server")
		c := forge(t, dir, "serve", "--addr", "127.0.0.1:0")
		if where == "PATH" {
			c.Env = append(c.Env, "PATH="+companionDir+string(os.PathListSeparator)+goBin(t))
		}
		code, stdout, stderr := runBuild(t, c)
		path := filepath.Join(companionDir, companion.Binary)
		want := "forge: " + path + " is version 0.9.0 but forge is " + ours + ": install forge and its companions from one release or package (or build them together: `go build -o " + companionDir + "/ ./cmd/forge ./cmd/forge-server`)\n"
		if code != 1 || stdout != "" || stderr != want {
			t.Errorf("%s: exit %d, stdout %q, stderr:\n%s\nwant:\n%s", where, code, stdout, stderr, want)
		}
		if companiontest.Ran(clone) {
			t.Fatalf("%s: forge ran a forge-server of another version", where)
		}
	}
}

// TestOtherProgramRefused: a program named forge-server on the PATH that
// is not forge's is not run.
func TestOtherProgramRefused(t *testing.T) {
	t.Parallel()
	dir := install(t, false)
	other := t.TempDir()
	companiontest.WriteTree(t, other, map[string]string{
		"go.mod":  "module example.com/other\n\ngo 1.22\n",
		"main.go": "package main\n\nimport \"os\"\n\nfunc main() { os.WriteFile(\"ran\", nil, 0o644); os.Exit(3) }\n",
	})
	bin := t.TempDir()
	goBuild(t, other, filepath.Join(bin, companion.Binary), ".")
	c := forge(t, dir, "serve")
	c.Env = append(c.Env, "PATH="+bin+string(os.PathListSeparator)+goBin(t))
	code, stdout, stderr := runBuild(t, c)
	want := "forge: " + filepath.Join(bin, companion.Binary) + " is not forge's forge-server: remove it, or install forge again from a release or package, which ships both\n"
	if code != 1 || stdout != "" || stderr != want {
		t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant:\n%s", code, stdout, stderr, want)
	}
	if _, err := os.Stat(filepath.Join(c.Dir, "ran")); err == nil {
		t.Error("forge ran another program's forge-server")
	}
}

// goBuild builds pkg in dir to out, with the test's go cache.
func goBuild(t *testing.T, dir, out string, args ...string) {
	t.Helper()
	c := exec.Command("go", append([]string{"build", "-o", out}, args...)...)
	c.Dir = dir
	if b, err := c.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
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
