package cmdutil

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/internal/iostreams"
)

func factoryWith(t *testing.T, env map[string]string) *Factory {
	t.Helper()
	ios, _, _, _ := iostreams.Test()
	env["FORGE_CONFIG_DIR"] = t.TempDir()
	return New(ios, func(k string) string { return env[k] })
}

func TestRESTNeedsLogin(t *testing.T) {
	_, err := factoryWith(t, map[string]string{}).REST()
	if cmdcore.ExitCode(err) != cmdcore.ExitAuth || !strings.Contains(err.Error(), "forge auth login --base-url") {
		t.Fatalf("no base URL: %v", err)
	}
	_, err = factoryWith(t, map[string]string{"FORGE_BASE_URL": "http://127.0.0.1:1/api/v2"}).REST()
	if cmdcore.ExitCode(err) != cmdcore.ExitAuth || !strings.Contains(err.Error(), "not logged in to http://127.0.0.1:1/api/v2") || !strings.Contains(err.Error(), "run `forge auth login`") {
		t.Fatalf("no token: %v", err)
	}
	c, err := factoryWith(t, map[string]string{"FORGE_BASE_URL": "http://127.0.0.1:1/api/v2", "FORGE_TOKEN": "t"}).REST()
	if err != nil || c.BaseURL() != "http://127.0.0.1:1/api/v2" || !c.HasToken() {
		t.Fatalf("client %v, err %v", c, err)
	}
}

func TestHTTPTimeoutSetting(t *testing.T) {
	cases := map[string]time.Duration{"": 30 * time.Second, "45": 45 * time.Second, "2m": 2 * time.Minute, "0": 0, "1.5": 1500 * time.Millisecond}
	for v, want := range cases {
		got, err := factoryWith(t, map[string]string{"FORGE_HTTP_TIMEOUT": v}).httpTimeout()
		if err != nil || got != want {
			t.Errorf("%q: %v, %v; want %v", v, got, err, want)
		}
	}
	_, err := factoryWith(t, map[string]string{"FORGE_HTTP_TIMEOUT": "soon", "FORGE_BASE_URL": "http://x/api/v2", "FORGE_TOKEN": "t"}).REST()
	var usage *cmdcore.UsageError
	if !errors.As(err, &usage) || !strings.Contains(err.Error(), "FORGE_HTTP_TIMEOUT") {
		t.Fatalf("bad timeout: %v", err)
	}
}
