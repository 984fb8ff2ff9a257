package browser

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestCommand(t *testing.T) {
	dir := t.TempDir()
	opener := filepath.Join(dir, "opener")
	if err := os.WriteFile(opener, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "BROWSER" {
				return v
			}
			return ""
		}
	}
	c, err := Command(env(opener+" --new-window"), "https://forge.example/alice/webapp")
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Args; len(got) != 3 || got[1] != "--new-window" || got[2] != "https://forge.example/alice/webapp" {
		t.Errorf("args %q", got)
	}
	if _, err := Command(env(filepath.Join(dir, "absent")), "https://forge.example/"); !errors.Is(err, ErrNoBrowser) {
		t.Errorf("an absent browser: %v", err)
	}
	for _, bad := range []string{"file:///etc/passwd", "-new-tab", "javascript:alert(1)", "http://"} {
		if _, err := Command(env(opener), bad); err == nil || errors.Is(err, ErrNoBrowser) {
			t.Errorf("%q was accepted: %v", bad, err)
		}
	}
}
