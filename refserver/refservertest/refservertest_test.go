package refservertest_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
)

// get sends GET url with the header and decodes a JSON object answer.
func get(t *testing.T, url, header, value string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if header != "" {
		req.Header.Set(header, value)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var obj map[string]any
	json.NewDecoder(res.Body).Decode(&obj)
	return res.StatusCode, obj
}

// TestStartServesAndCloses: the admin logs in with AdminPassword over
// loopback, and the server is gone once the test that started it ends.
func TestStartServesAndCloses(t *testing.T) {
	var url string
	t.Run("started", func(t *testing.T) {
		srv := refservertest.Start(t)
		url = srv.URL()
		if !strings.HasPrefix(url, "http://127.0.0.1:") {
			t.Errorf("URL %s is not on 127.0.0.1", url)
		}
		body := `{"username":"admin","password":"` + refservertest.AdminPassword + `"}`
		res, err := http.Post(srv.BaseURL()+"/auth/login", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Errorf("admin login: %s", res.Status)
		}
	})
	if res, err := http.Get(url + "/api/v2/me"); err == nil {
		res.Body.Close()
		t.Errorf("the server still answers after its test ended: %s", res.Status)
	}
}

// TestEnvIsLoggedIn: Env's token is the user's on the REST API and its
// username and password get a registry token; its directories are new.
func TestEnvIsLoggedIn(t *testing.T) {
	t.Parallel()
	srv := refservertest.Start(t)
	env := refservertest.Env(t, srv, "alice")
	status, me := get(t, env["FORGE_BASE_URL"]+"/me", "Authorization", "token "+env["FORGE_TOKEN"])
	if status != 200 || me["login"] != "alice" {
		t.Errorf("GET /me as Env's token: %d %v", status, me)
	}
	if env["FORGE_PASSWORD"] != refservertest.Password("alice") {
		t.Errorf("FORGE_PASSWORD %q", env["FORGE_PASSWORD"])
	}
	req, _ := http.NewRequest("GET", env["FORGE_REGISTRY_URL"]+"/token?service=forge&scope=repository:alice/app:push,pull", nil)
	req.SetBasicAuth(env["FORGE_USERNAME"], env["FORGE_PASSWORD"])
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("registry token with Env's credentials: %s", res.Status)
	}
	if env["FORGE_CONFIG_DIR"] == "" || env["FORGE_CONFIG_DIR"] == env["HOME"] {
		t.Errorf("directories %q %q", env["FORGE_CONFIG_DIR"], env["HOME"])
	}
	for _, k := range []string{"AGENT_URL", "AGENT_API_KEY"} {
		if env[k] == "" {
			t.Errorf("no %s", k)
		}
	}
	// A second Env of an existing account keeps it and its password.
	if again := refservertest.Env(t, srv, "alice"); again["FORGE_PASSWORD"] != env["FORGE_PASSWORD"] || again["FORGE_TOKEN"] == env["FORGE_TOKEN"] {
		t.Errorf("second Env: password %q, token new: %v", again["FORGE_PASSWORD"], again["FORGE_TOKEN"] != env["FORGE_TOKEN"])
	}
}

// TestDemoWorld: the demo's accounts, dated from the fixed clock, with
// the demo password in their environment; options given after the
// defaults win.
func TestDemoWorld(t *testing.T) {
	t.Parallel()
	srv := refservertest.DemoWorld(t, refservertest.CITick(time.Minute))
	if got := srv.Store().Now(); !got.Equal(refservertest.Now) {
		t.Errorf("clock %v, want %v", got, refservertest.Now)
	}
	env := refservertest.Env(t, srv, "alice")
	if env["FORGE_PASSWORD"] != refserver.DemoPassword {
		t.Errorf("alice's password in Env: %q", env["FORGE_PASSWORD"])
	}
	if status, repo := get(t, srv.BaseURL()+"/repos/alice/webapp", "Authorization", "token "+env["FORGE_TOKEN"]); status != 200 || repo["full_name"] != "alice/webapp" {
		t.Errorf("alice/webapp: %d %v", status, repo)
	}
}

// TestNewDoesNotListen: New builds a server to serve through a handler of
// the test's own.
func TestNewDoesNotListen(t *testing.T) {
	t.Parallel()
	srv := refservertest.New(t, func(o *refserver.Options) { o.AdminPassword = "another-password-5678" })
	if srv.URL() != "" || srv.Handler() == nil || srv.AdminPassword() != "another-password-5678" {
		t.Errorf("URL %q, password %q", srv.URL(), srv.AdminPassword())
	}
}
