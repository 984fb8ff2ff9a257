package companion

import (
	"debug/buildinfo"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/forgehq/forge/cmd/companion/companiontest"
)

// readBuildInfo reads what debug/buildinfo reads: of this test binary,
// of a stripped, trimmed build (as releases are) and of a file that is no
// Go program.
func TestReadBuildInfo(t *testing.T) {
	paths := []string{os.Args[0]}
	if _, err := exec.LookPath("go"); err == nil {
		dir := t.TempDir()
		companiontest.WriteTree(t, dir, map[string]string{
			"go.mod":  "module example.com/stripped\n\ngo 1.22\n",
			"main.go": "package main\n\nfunc main() {}\n",
		})
		c := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", "stripped", ".")
		c.Dir = dir
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
		paths = append(paths, filepath.Join(dir, "stripped"))
	}
	for _, path := range paths {
		want, err := buildinfo.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := readBuildInfo(path)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("readBuildInfo(%s) = %+v, %v\nwant %+v", path, got, err, want)
		}
	}
	text := filepath.Join(t.TempDir(), "forge-server")
	if err := os.WriteFile(text, []byte("#!/bin/sh\necho not forge\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if bi, err := readBuildInfo(text); err == nil {
		t.Errorf("readBuildInfo of a script = %+v", bi)
	}
}

// What the check costs forge serve and forge mcp serve once per start:
// go test -bench ReadBuildInfo -benchtime 50x ./cmd/companion/ (with
// FORGE_BENCH_BINARY=path/to/forge-mcp for a release build).
func BenchmarkReadBuildInfo(b *testing.B) {
	path := os.Getenv("FORGE_BENCH_BINARY")
	if path == "" {
		path = os.Args[0]
	}
	for b.Loop() {
		if _, err := readBuildInfo(path); err != nil {
			b.Fatal(err)
		}
	}
}
