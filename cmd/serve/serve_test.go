package serve

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/refserver/store"
)

func TestServe(t *testing.T) {
	ios, _, out, errOut := iostreams.Test()
	f := cmdutil.New(ios, func(string) string { return "" })
	envFile := filepath.Join(t.TempDir(), "forge.env")
	data := t.TempDir()
	start := time.Now()
	srv, stop := serving(t, &Options{f: f, Addr: "127.0.0.1:0", DataDir: data, AdminUser: "admin", Demo: true, EnvFile: envFile, CITick: time.Second})
	t.Logf("ready after %v", time.Since(start))

	lines := out.String()
	env := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(lines), "\n") {
		k, v, ok := strings.Cut(l, "=")
		if !ok {
			t.Fatalf("stdout line %q is not NAME=value", l)
		}
		env[k] = v
	}
	// What every user needs, and not the admin's login: sourcing it must
	// not make a user the admin.
	if env["FORGE_BASE_URL"] != srv.BaseURL() || env["AGENT_URL"] != srv.URL() || env["FORGE_REGISTRY_URL"] != srv.URL() ||
		env["AGENT_API_KEY"] == "" || len(env) != 4 {
		t.Errorf("printed environment %q", lines)
	}
	// The admin's login: once on stderr, and in its own 0600 file in --data.
	adminFile := filepath.Join(data, "admin.env")
	ab, err := os.ReadFile(adminFile)
	if err != nil {
		t.Fatal(err)
	}
	admin := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(ab)), "\n") {
		k, v, _ := strings.Cut(l, "=")
		admin[k] = v
	}
	if admin["FORGE_USERNAME"] != "admin" || len(admin["FORGE_PASSWORD"]) < 16 {
		t.Errorf("admin.env %q", ab)
	}
	if fi, _ := os.Stat(adminFile); fi.Mode().Perm() != 0o600 {
		t.Errorf("admin.env mode %o", fi.Mode().Perm())
	}
	if want := "site_admin admin, password " + admin["FORGE_PASSWORD"] + " (kept in " + adminFile + ")"; strings.Count(errOut.String(), want) != 1 {
		t.Errorf("stderr %q, want once %q", errOut.String(), want)
	}
	b, err := os.ReadFile(envFile)
	if err != nil || string(b) != lines {
		t.Errorf("env file %q (%v), want the printed lines", b, err)
	}
	if fi, _ := os.Stat(envFile); fi.Mode().Perm() != 0o600 {
		t.Errorf("env file mode %o", fi.Mode().Perm())
	}
	if !strings.Contains(errOut.String(), "demo accounts alice") {
		t.Errorf("stderr %q", errOut.String())
	}
	// The printed login works.
	res, err := http.Post(env["FORGE_BASE_URL"]+"/auth/login", "application/json",
		strings.NewReader(`{"username":"admin","password":"`+admin["FORGE_PASSWORD"]+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("login with the printed password: %d", res.StatusCode)
	}

	// Ctrl-C: a graceful stop, exit status 0.
	if err := stop(); err != nil {
		t.Fatalf("serve returned %v after interrupt", err)
	}
	if !strings.Contains(errOut.String(), "stopped") {
		t.Errorf("stderr after stop %q", errOut.String())
	}
	if _, err := http.Get(srv.BaseURL() + "/me"); err == nil {
		t.Error("server still answers after stopping")
	}
}

func TestServeBadInput(t *testing.T) {
	ios, _, _, errOut := iostreams.Test()
	f := cmdutil.New(ios, func(string) string { return "" })
	ctx := context.Background()
	var usage *cmdutil.UsageError
	if err := runServe(ctx, &Options{f: f, Addr: "127.0.0.1:0", AdminPassword: "short", CITick: time.Second}); !errors.As(err, &usage) {
		t.Errorf("short admin password: %v", err)
	}
	if err := runServe(ctx, &Options{f: f, Addr: "nonsense", CITick: time.Second}); !errors.As(err, &usage) {
		t.Errorf("bad --addr: %v", err)
	}
	if err := runServe(ctx, &Options{f: f, Addr: "127.0.0.1:0", PublicURL: "forge.example.com", CITick: time.Second}); !errors.As(err, &usage) ||
		!strings.Contains(err.Error(), "--public-url") {
		t.Errorf("--public-url without a scheme: %v", err)
	}
	if err := runServe(ctx, &Options{f: f, Addr: "127.0.0.1:0", MaxPerAddr: -5, CITick: time.Second}); !errors.As(err, &usage) ||
		!strings.Contains(err.Error(), "--max-conns-per-addr") {
		t.Errorf("--max-conns-per-addr -5: %v", err)
	}
	if err := runServe(ctx, &Options{f: f, Addr: "127.0.0.1:0", RequestTO: -time.Second, CITick: time.Second}); !errors.As(err, &usage) ||
		!strings.Contains(err.Error(), "--request-timeout") {
		t.Errorf("--request-timeout -1s: %v", err)
	}
	o := &Options{f: f, Addr: "127.0.0.1:0", PublicURL: "https://forge.example.com/", CITick: time.Second}
	if err := o.validate(); err != nil || o.PublicURL != "https://forge.example.com" {
		t.Errorf("--public-url https://forge.example.com/: %v, kept as %q", err, o.PublicURL)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	err = runServe(ctx, &Options{f: f, Addr: ln.Addr().String(), AdminUser: "admin", CITick: time.Second})
	if err == nil || !strings.Contains(err.Error(), "--addr") || errors.As(err, &usage) {
		t.Errorf("address in use: %v", err)
	}
	if errOut.Len() != 0 {
		t.Errorf("stderr %q", errOut.String())
	}
	// A non-loopback address gets a warning.
	if err := (&Options{f: f, Addr: "0.0.0.0:0", CITick: time.Second}).validate(); err != nil || !strings.Contains(errOut.String(), "warning") {
		t.Errorf("0.0.0.0: %v, stderr %q", err, errOut.String())
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:8080/api/v2": "http://127.0.0.1:8080/api/v2",
		"a b":                          "'a b'",
		"it's":                         `'it'\''s'`,
		"":                             "''",
		"$HOME":                        "'$HOME'",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestServeDataDirLocked: a second forge serve on the same --data refuses
// to start instead of corrupting the first one's journal.
func TestServeDataDirLocked(t *testing.T) {
	dir := t.TempDir()
	unlock, err := store.LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	ios, _, _, _ := iostreams.Test()
	f := cmdutil.New(ios, func(string) string { return "" })
	err = runServe(context.Background(), &Options{f: f, Addr: "127.0.0.1:0", DataDir: dir, AdminUser: "admin", CITick: time.Second})
	if err == nil || !strings.Contains(err.Error(), "in use by another server") {
		t.Errorf("second server on one --data: %v", err)
	}
}
