// Package companiontest installs a test binary as forge and its
// companions, for tests that run forge as users do (its TestMain picks
// the part to play by the name os.Executable gives).
package companiontest

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// Play runs the test binary as the program its file is named for, as
// Install names it ("forge", "forge-server", ...: programs gives each its
// main) and exits with its code; under any other name it returns, for the
// tests to run. A TestMain calls it first. The name is the file's, as
// os.Executable gives it: a companion keeps forge's argv[0].
func Play(programs map[string]func() int) {
	self, _ := os.Executable()
	if main, ok := programs[filepath.Base(self)]; ok {
		os.Exit(main())
	}
}

// Install puts the test binary in a new directory under each of names
// ("forge", "forge-server", ...), as packages install them side by side,
// and returns the directory. The copies are hard links where possible:
// a symbolic link would make os.Executable name the test binary.
func Install(t testing.TB, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range names {
		if err := os.Link(os.Args[0], filepath.Join(dir, name)); err != nil {
			b, err := os.ReadFile(os.Args[0])
			if err == nil {
				err = os.WriteFile(filepath.Join(dir, name), b, 0o755)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// Clone is a new directory holding a module of forge's path whose
// cmd/BINARY, when built and run, writes the file Ran checks, prints "the
// clone's BINARY: ARGS" and exits 3: a stranger's tree that looks like a
// clone of forge, which forge must never build from (its code would run
// as forge), unless forge was built from that very tree.
func Clone(t testing.TB, binary string) string {
	t.Helper()
	clone := t.TempDir()
	files := map[string]string{
		"go.mod": "module github.com/forgehq/forge\n\ngo 1.22\n",
		"cmd/" + binary + "/main.go": `package main

import (
	"fmt"
	"os"
	"strings"
)

func main() {
	os.WriteFile(` + strconv.Quote(ranFile(clone)) + `, nil, 0o644)
	fmt.Println("the clone's ` + binary + `:", strings.Join(os.Args[1:], " "))
	os.Exit(3)
}
`,
	}
	WriteTree(t, clone, files)
	return clone
}

// WriteTree writes files (slash-separated names below dir, and their
// contents) into dir.
func WriteTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Ran says whether a program built from the clone has run.
func Ran(clone string) bool {
	_, err := os.Stat(ranFile(clone))
	return err == nil
}

func ranFile(clone string) string { return filepath.Join(clone, "the-clone-ran") }

// ExecutesTemplates reports whether the program of package pkg (a main
// package's import path) links text/template's executor: once a binary
// can execute a template, whose reflection may call any method by name,
// the linker keeps every exported method of every type in it (3.5 MB of
// forge-server). It builds the program; without go, the test is skipped.
func ExecutesTemplates(t testing.TB, pkg string) bool {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "prog")
	if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			t.Skipf("go build: %v", err)
		}
		t.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	syms, err := exec.Command("go", "tool", "nm", bin).Output()
	if err != nil {
		t.Fatalf("go tool nm: %v", err)
	}
	return bytes.Contains(syms, []byte(" text/template.(*state).evalCall\n"))
}
