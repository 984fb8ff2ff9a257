package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/refserver"
)

// loginAs logs in over HTTP and returns the token.
func loginAs(t *testing.T, srv *refserver.Server, user, password string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"username": user, "password": password})
	res, err := http.Post(srv.BaseURL()+"/auth/login", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var lr struct{ Token string }
	if res.StatusCode != 200 || json.NewDecoder(res.Body).Decode(&lr) != nil {
		t.Fatalf("login as %s: %s", user, res.Status)
	}
	return lr.Token
}

// git runs the real git in dir.
func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0",
		"GIT_AUTHOR_NAME=Alice", "GIT_AUTHOR_EMAIL=alice@example.com", "GIT_COMMITTER_NAME=Alice", "GIT_COMMITTER_EMAIL=alice@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// TestServeKeepsStateByDefault: `forge serve --demo` with neither --data
// nor --memory keeps its state under $XDG_DATA_HOME/forge/serve, so that
// after Ctrl-C and a new start a newcomer's token, git remote (the real
// git: a clone, then pushes before and after the restart) and agent key
// still work.
func TestServeKeepsStateByDefault(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	xdg := t.TempDir()
	getenv := func(k string) string {
		if k == "XDG_DATA_HOME" {
			return xdg
		}
		return ""
	}
	start := func() (*refserver.Server, func() error, *bytes.Buffer) {
		ios, _, _, errOut := iostreams.Test()
		srv, stop := serving(t, &Options{Deps: cmdcore.Deps{IO: ios, Getenv: getenv}, Addr: "127.0.0.1:0", AdminUser: "admin", Demo: true,
			CITick: time.Second, defaultData: true})
		return srv, stop, errOut
	}
	srv, stop, errOut := start()
	dir := filepath.Join(xdg, "forge", "serve")
	if !strings.Contains(errOut.String(), "state kept in "+dir+" across restarts") {
		t.Errorf("serve's stderr does not say where the state is: %s", errOut)
	}
	alice := loginAs(t, srv, "alice", refserver.DemoPassword)
	agentKey := srv.AgentKey()
	remote := func(srv *refserver.Server) string {
		u, _ := url.Parse(srv.URL() + "/alice/webapp.git")
		u.User = url.UserPassword("alice", alice)
		return u.String()
	}
	work := t.TempDir()
	git(t, work, "clone", "-q", remote(srv), "webapp")
	clone := filepath.Join(work, "webapp")
	edit := func(n string) {
		os.WriteFile(filepath.Join(clone, "NOTES.md"), []byte("note "+n+"\n"), 0o644)
		git(t, clone, "add", ".")
		git(t, clone, "commit", "-q", "-m", "Note "+n+" [skip ci]")
		git(t, clone, "push", "-q", "origin", "HEAD")
	}
	edit("one")
	if err := stop(); err != nil {
		t.Fatal(err)
	}

	srv, stop, _ = start()
	defer stop()
	c, err := client.New(srv.BaseURL(), alice)
	if err != nil {
		t.Fatal(err)
	}
	if me, err := c.Account.Me(context.Background()); err != nil || me.Login != "alice" {
		t.Fatalf("alice's token after a restart: %v", err)
	}
	if srv.AgentKey() != agentKey {
		t.Error("the agent key changed across a restart")
	}
	git(t, clone, "remote", "set-url", "origin", remote(srv))
	edit("two")
	git(t, clone, "pull", "-q", "origin", "main")
	git(t, clone, "fsck", "--strict")
}

// TestServeMemorySaysWhyATokenIsRefused: with --memory a restart forgets
// every token and agent key, and the first error a client gets says so:
// forge's own error for the REST token, and the agent API's answer.
func TestServeMemorySaysWhyATokenIsRefused(t *testing.T) {
	ios, _, _, errOut := iostreams.Test()
	f := &cmdcore.Globals{IOStreams: ios, Getenv: func(string) string { return "" }}
	srv, stop := serving(t, &Options{Deps: f.Deps(), Addr: "127.0.0.1:0", AdminUser: "admin", Demo: true, CITick: time.Second, Memory: true})
	if !strings.Contains(errOut.String(), "state kept in memory only") {
		t.Errorf("serve's stderr does not say the state is in memory: %s", errOut)
	}
	alice := loginAs(t, srv, "alice", refserver.DemoPassword)
	agentKey := srv.AgentKey()
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	srv, stop = serving(t, &Options{Deps: f.Deps(), Addr: "127.0.0.1:0", AdminUser: "admin", Demo: true, CITick: time.Second, Memory: true})
	defer stop()
	c, err := client.New(srv.BaseURL(), alice)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Account.Me(context.Background())
	if err == nil || !strings.Contains(err.Error(), "HTTP 401: bad credentials: the token is unknown or was revoked; this server keeps its state in memory (forge serve --memory) and started at ") ||
		!strings.HasSuffix(err.Error(), "; run `forge auth login`") {
		t.Errorf("forge's error for a token of the earlier run: %v", err)
	}
	req, _ := http.NewRequest("GET", srv.URL()+"/api/v1/usage", nil)
	req.Header.Set("X-API-Key", agentKey)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var e struct{ Error string }
	json.NewDecoder(res.Body).Decode(&e)
	res.Body.Close()
	if res.StatusCode != 401 || !strings.Contains(e.Error, "invalid API key; this server keeps its state in memory") {
		t.Errorf("the agent key of the earlier run: %d %q", res.StatusCode, e.Error)
	}
}
