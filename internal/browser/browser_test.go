package browser

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/iostreams"
)

// An address from the server that is not http(s) is never handed to a
// program: file:, javascript:, an option-like word.
func TestOnlyHTTPAddressesAreOpened(t *testing.T) {
	dir := t.TempDir()
	mark := filepath.Join(dir, "ran")
	script := filepath.Join(dir, "browser.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ntouch "+mark+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"BROWSER": script}
	ios, _, _, _ := iostreams.Test()
	for _, bad := range []string{"file:///etc/passwd", "javascript:alert(1)", "--help", "http://", ""} {
		err := Open(ios, func(k string) string { return env[k] }, bad)
		if err == nil || !strings.Contains(err.Error(), "not an http(s) URL") {
			t.Errorf("Open(%q) = %v", bad, err)
		}
	}
	if _, err := os.Stat(mark); err == nil {
		t.Fatal("the browser ran for a refused address")
	}
	if err := Open(ios, func(k string) string { return env[k] }, "https://forge.example.com/alice/demo"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(mark); err != nil {
		t.Fatal("the browser did not run for an https address")
	}
}

// No $BROWSER and no display: the address is printed, nothing runs.
func TestNoBrowserPrintsTheAddress(t *testing.T) {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		t.Skip("the system opener is used on this platform")
	}
	ios, _, out, _ := iostreams.Test()
	if err := Open(ios, func(string) string { return "" }, "https://forge.example.com/a/b"); err != nil {
		t.Fatal(err)
	}
	if out.String() != "https://forge.example.com/a/b\n" {
		t.Errorf("stdout %q", out)
	}
}
