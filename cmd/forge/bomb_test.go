//go:build linux

package main

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// gzipBomb is about 1 MB of gzip that decodes to a JSON answer 1 GiB
// long: `{"tags":["aaaa…` — one string that never ends, which a JSON
// decoder keeps whole while it waits for the end. Sixteen gzip members of
// 64 MiB each, as a gzip stream may hold.
func gzipBomb(t *testing.T) []byte {
	t.Helper()
	member := func(prefix string) []byte {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		zw.Write([]byte(prefix))
		zw.Write(bytes.Repeat([]byte("a"), 64<<20))
		zw.Close()
		return b.Bytes()
	}
	first, rest := member(`{"tags":["`), member("")
	bomb := append([]byte{}, first...)
	for range 15 {
		bomb = append(bomb, rest...)
	}
	return bomb
}

// TestGzipBombIsBounded: a service whose every answer (the registry's
// tags list and catalog, a REST answer, an agent reply) is about 1 MB of
// gzip decoding to 1 GiB. forge reads what the
// answer decodes to up to internal/wire's bound (64 MiB) and stops with
// an error; its peak memory, measured by the kernel, stays far below the
// gigabytes the whole answer would take (bench/README.md, "A gzip bomb").
func TestGzipBombIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 1 GiB gzip bomb")
	}
	bomb := gzipBomb(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v2/" {
			w.WriteHeader(http.StatusOK)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(bomb)
	}))
	defer srv.Close()
	reg := strings.TrimPrefix(srv.URL, "http://")
	dir := t.TempDir()
	for _, args := range [][]string{
		{"image", "tags", reg + "/alice/hello"},
		{"image", "list"},
		{"api", "repos/alice/hello"},
		{"chat", "--no-stream", "-m", "hello"},
	} {
		c := exec.Command("forge", args...)
		c.Env = append(os.Environ(), "FORGE_CONFIG_DIR="+dir, "HOME="+dir,
			"FORGE_BASE_URL="+srv.URL+"/api/v2", "FORGE_REGISTRY_URL="+srv.URL, "FORGE_TOKEN=some-token-value",
			"AGENT_URL="+srv.URL, "AGENT_API_KEY=agk_bombkey0123456789", "FORGE_USERNAME=", "FORGE_PASSWORD=")
		var stderr bytes.Buffer
		c.Stderr = &stderr
		err := c.Run()
		if c.ProcessState == nil {
			t.Fatalf("forge %s: %v", strings.Join(args, " "), err)
		}
		rss := c.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB on Linux
		t.Logf("forge %s: peak RSS %d MiB, exit %d: %s", strings.Join(args, " "), rss>>20, c.ProcessState.ExitCode(), strings.TrimSpace(stderr.String()))
		if c.ProcessState.ExitCode() != 1 || !strings.Contains(stderr.String(), "decodes to more than 64 MiB") {
			t.Errorf("forge %s: exit %d, stderr %q; want exit 1 naming the bound", strings.Join(args, " "), c.ProcessState.ExitCode(), stderr.String())
		}
		if rss > 512<<20 {
			t.Errorf("forge %s: peak RSS %d MiB; the bound on what is decoded keeps it under 512 MiB", strings.Join(args, " "), rss>>20)
		}
	}
}
