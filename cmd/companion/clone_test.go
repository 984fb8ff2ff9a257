package companion

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/cmd/companion/companiontest"
	"github.com/forgehq/forge/internal/iostreams"
)

// builtFrom plays forge built from clone, run in dir: the factory, with a
// cache of its own, and its stderr.
func builtFrom(t *testing.T, clone, dir string) (*cmdutil.Factory, *strings.Builder) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go tool")
	}
	saved := sourceRoot
	sourceRoot = func() string { return clone }
	t.Cleanup(func() { sourceRoot = saved })
	t.Chdir(dir)
	ios, _, _, _ := iostreams.Test()
	var errOut strings.Builder
	ios.ErrOut = &errOut
	cache := t.TempDir()
	return cmdutil.New(ios, func(k string) string {
		if k == "XDG_CACHE_HOME" {
			return cache
		}
		return ""
	}), &errOut
}

// TestBuildsFromItsOwnClone: forge built from a clone and run inside it
// (`go run ./cmd/forge serve`) builds that clone's forge-server and runs
// it. It says it is building only when go build has work: the second
// time, with the binary up to date, it says nothing, although the clone
// is a git repository whose VCS stamp go would look up (git status, git
// log) on every build.
func TestBuildsFromItsOwnClone(t *testing.T) {
	clone := companiontest.Clone(t, Binary)
	git := func(args ...string) {
		c := exec.Command("git", append([]string{"-c", "user.name=forge", "-c", "user.email=forge@example.com"}, args...)...)
		c.Dir = clone
		if out, err := c.CombinedOutput(); err != nil {
			t.Skipf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "the clone")
	t.Setenv("GOFLAGS", "-buildvcs=true") // as go does by default in a git repository
	f, errOut := builtFrom(t, clone, filepath.Join(clone, "cmd"))
	notice := "forge: building forge-server from the clone at " + clone + " (go build ./cmd/forge-server)\n"
	for _, want := range []string{notice, ""} {
		errOut.Reset()
		path, err := Find(f, Binary)
		if err != nil || errOut.String() != want {
			t.Fatalf("Find: %v, stderr %q, want %q", err, errOut.String(), want)
		}
		out, err := exec.Command(path, "serve", "--flag", "x y").Output()
		if code := exitCode(err); code != 3 || string(out) != "the clone's forge-server: serve --flag x y\n" || !companiontest.Ran(clone) {
			t.Errorf("the built forge-server: exit %d, stdout %q", code, out)
		}
	}
}

// TestOwnCloneThatDoesNotBuild: when the clone's forge-server does not
// build, forge shows go's errors alone (not go build -x's steps) and says
// what to do.
func TestOwnCloneThatDoesNotBuild(t *testing.T) {
	clone := companiontest.Clone(t, Binary)
	main := filepath.Join(clone, "cmd", Binary, "main.go")
	if err := os.WriteFile(main, []byte("package main\n\nfunc main() { undefinedName() }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, errOut := builtFrom(t, clone, clone)
	_, err := Find(f, Binary)
	want := "go build ./cmd/forge-server failed in the clone at " + clone + " (its errors are above): fix them, or run forge outside the clone to use an installed forge-server"
	stderr := errOut.String()
	if err == nil || err.Error() != want || !strings.HasPrefix(stderr, "forge: building forge-server from the clone at "+clone) ||
		!strings.Contains(stderr, "undefined: undefinedName") || strings.Contains(stderr, "WORK=") {
		t.Errorf("Find: %v\nstderr:\n%s", err, stderr)
	}
}

// TestOutsideItsOwnClone: forge built from a clone but run outside it
// builds nothing.
func TestOutsideItsOwnClone(t *testing.T) {
	clone := companiontest.Clone(t, Binary)
	builtFrom(t, clone, t.TempDir())
	if root := ownClone(Binary); root != "" {
		t.Errorf("ownClone outside the clone = %q", root)
	}
}

func exitCode(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}
