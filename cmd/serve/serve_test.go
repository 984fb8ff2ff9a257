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

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/refserver/store"
)

func TestServe(t *testing.T) {
	ios, _, out, errOut := iostreams.Test()
	f := &cmdcore.Globals{IOStreams: ios, Getenv: func(string) string { return "" }}
	envFile := filepath.Join(t.TempDir(), "forge.env")
	data := t.TempDir()
	start := time.Now()
	srv, stop := serving(t, &Options{Deps: f.Deps(), Addr: "127.0.0.1:0", DataDir: data, AdminUser: "admin", Demo: true, EnvFile: envFile, CITick: time.Second})
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
	f := &cmdcore.Globals{IOStreams: ios, Getenv: func(string) string { return "" }}
	ctx := context.Background()
	var usage *cmdcore.UsageError
	if err := runServe(ctx, &Options{Deps: f.Deps(), Addr: "127.0.0.1:0", AdminPassword: "short", CITick: time.Second}); !errors.As(err, &usage) {
		t.Errorf("short admin password: %v", err)
	}
	if err := runServe(ctx, &Options{Deps: f.Deps(), Addr: "nonsense", CITick: time.Second}); !errors.As(err, &usage) {
		t.Errorf("bad --addr: %v", err)
	}
	if err := runServe(ctx, &Options{Deps: f.Deps(), Addr: "127.0.0.1:0", PublicURL: "forge.example.com", CITick: time.Second}); !errors.As(err, &usage) ||
		!strings.Contains(err.Error(), "--public-url") {
		t.Errorf("--public-url without a scheme: %v", err)
	}
	if err := runServe(ctx, &Options{Deps: f.Deps(), Addr: "127.0.0.1:0", MaxPerAddr: -5, CITick: time.Second}); !errors.As(err, &usage) ||
		!strings.Contains(err.Error(), "--max-conns-per-addr") {
		t.Errorf("--max-conns-per-addr -5: %v", err)
	}
	if err := runServe(ctx, &Options{Deps: f.Deps(), Addr: "127.0.0.1:0", RequestTO: -time.Second, CITick: time.Second}); !errors.As(err, &usage) ||
		!strings.Contains(err.Error(), "--request-timeout") {
		t.Errorf("--request-timeout -1s: %v", err)
	}
	o := &Options{Deps: f.Deps(), Addr: "127.0.0.1:0", PublicURL: "https://forge.example.com/", CITick: time.Second}
	if err := o.validate(); err != nil || o.PublicURL != "https://forge.example.com" {
		t.Errorf("--public-url https://forge.example.com/: %v, kept as %q", err, o.PublicURL)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	err = runServe(ctx, &Options{Deps: f.Deps(), Addr: ln.Addr().String(), AdminUser: "admin", CITick: time.Second})
	if err == nil || !strings.Contains(err.Error(), "--addr") || errors.As(err, &usage) {
		t.Errorf("address in use: %v", err)
	}
	if errOut.Len() != 0 {
		t.Errorf("stderr %q", errOut.String())
	}
	// An address beyond loopback needs --listen-any; loopback ones do not.
	for _, addr := range []string{"0.0.0.0:0", ":8080", "[::]:0", "192.0.2.1:8080", "example.com:80"} {
		err := (&Options{Deps: f.Deps(), Addr: addr, CITick: time.Second}).validate()
		if want := "--addr " + addr + " is not a loopback address: "; !errors.As(err, &usage) || !strings.HasPrefix(err.Error(), want) ||
			!strings.HasSuffix(err.Error(), "use 127.0.0.1:PORT, or pass --listen-any") {
			t.Errorf("--addr %s without --listen-any: %v", addr, err)
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "127.9.9.9:0", "[::1]:0", "localhost:0", "LocalHost:0"} {
		if err := (&Options{Deps: f.Deps(), Addr: addr, CITick: time.Second}).validate(); err != nil {
			t.Errorf("--addr %s: %v", addr, err)
		}
	}
	if errOut.Len() != 0 {
		t.Errorf("stderr %q", errOut.String())
	}
}

// TestServeListenAny: with --listen-any, serve listens on every interface
// for --addr 0.0.0.0:0 and answers there: at the printed settings, which
// name loopback (an address this machine's clients dial without forge
// warning of plain http to another machine), at another loopback address
// a 127.0.0.1 listener would not take, and at this machine's other IPv4
// addresses. It says so, and that the settings are this machine's only
// until --public-url names one for others.
func TestServeListenAny(t *testing.T) {
	ios, _, out, errOut := iostreams.Test()
	f := &cmdcore.Globals{IOStreams: ios, Getenv: func(string) string { return "" }}
	srv, stop := serving(t, &Options{Deps: f.Deps(), Addr: "0.0.0.0:0", ListenAny: true, AdminUser: "admin",
		AdminPassword: "a-long-admin-password", CITick: time.Second})
	defer stop()
	host, port, err := net.SplitHostPort(strings.TrimPrefix(srv.URL(), "http://"))
	if err != nil || host != "127.0.0.1" {
		t.Fatalf("URL %s (%v), want http://127.0.0.1:PORT", srv.URL(), err)
	}
	if want := "FORGE_BASE_URL=http://127.0.0.1:" + port + "/api/v2\n"; !strings.HasPrefix(out.String(), want) {
		t.Errorf("stdout %q, want it to start %q", out.String(), want)
	}
	for _, want := range []string{
		"forge: listening on 0.0.0.0:0, which other machines may reach (--listen-any)\n",
		"forge: the settings and the URLs in answers name " + srv.URL() + ", which only this machine reaches; for other machines pass --public-url http://HOST:PORT naming this one\n",
	} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut.String())
		}
	}
	login(t, srv.BaseURL(), "admin", "a-long-admin-password")
	hosts := []string{"127.0.0.2"}
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if ip, ok := a.(*net.IPNet); ok && ip.IP.To4() != nil && !ip.IP.IsLoopback() {
			hosts = append(hosts, ip.IP.String())
		}
	}
	t.Logf("reached at %s", hosts)
	for _, h := range hosts {
		login(t, "http://"+net.JoinHostPort(h, port)+"/api/v2", "admin", "a-long-admin-password")
	}
}

// TestServeListenAnyPublicURL: with --public-url the settings name it,
// and nothing warns that they name the listen address.
func TestServeListenAnyPublicURL(t *testing.T) {
	ios, _, out, errOut := iostreams.Test()
	f := &cmdcore.Globals{IOStreams: ios, Getenv: func(string) string { return "" }}
	srv, stop := serving(t, &Options{Deps: f.Deps(), Addr: "0.0.0.0:0", ListenAny: true, PublicURL: "https://forge.example.com/",
		AdminUser: "admin", AdminPassword: "a-long-admin-password", CITick: time.Second})
	defer stop()
	if want := "FORGE_BASE_URL=https://forge.example.com/api/v2\n"; !strings.HasPrefix(out.String(), want) {
		t.Errorf("stdout %q, want it to start %q", out.String(), want)
	}
	if !strings.Contains(errOut.String(), "forge: public URL https://forge.example.com\n") || strings.Contains(errOut.String(), "only this machine") {
		t.Errorf("stderr:\n%s", errOut.String())
	}
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL(), "http://"))
	login(t, "http://127.0.0.1:"+port+"/api/v2", "admin", "a-long-admin-password")
}

// login logs in at the REST API at base and fails the test unless that
// succeeds: the server answers there.
func login(t *testing.T, base, user, password string) {
	t.Helper()
	res, err := http.Post(base+"/auth/login", "application/json",
		strings.NewReader(`{"username":"`+user+`","password":"`+password+`"}`))
	if err != nil {
		t.Errorf("login at %s: %v", base, err)
		return
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("login at %s: %d", base, res.StatusCode)
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
	f := &cmdcore.Globals{IOStreams: ios, Getenv: func(string) string { return "" }}
	err = runServe(context.Background(), &Options{Deps: f.Deps(), Addr: "127.0.0.1:0", DataDir: dir, AdminUser: "admin", CITick: time.Second})
	if err == nil || !strings.Contains(err.Error(), "in use by another server") {
		t.Errorf("second server on one --data: %v", err)
	}
}
