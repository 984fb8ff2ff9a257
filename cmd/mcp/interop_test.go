package mcp_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/forgehq/forge/cmd"
	"github.com/forgehq/forge/cmd/companion"
	"github.com/forgehq/forge/cmd/companion/companiontest"
	"github.com/forgehq/forge/cmd/mcp"
	"github.com/forgehq/forge/mcpserver"
	"github.com/forgehq/forge/mcpserver/mcpservertest"
)

// TestMain lets the test binary be forge itself (FORGE_MCP_TEST_AS_FORGE=1)
// for the clients that launch `forge mcp serve` as a process: forge as it
// ships, handing the serve to forge-mcp, or forge-mcp when installed by
// that name beside it (companiontest.Install; forge-mcp keeps forge's
// argv[0], so the name is os.Executable's). The tests in this process
// serve in-process, as forge-mcp.
func TestMain(m *testing.M) {
	if os.Getenv("FORGE_MCP_TEST_AS_FORGE") == "1" {
		if self, _ := os.Executable(); filepath.Base(self) == companion.MCP {
			mcp.Serve = mcpserver.Serve
			os.Exit(mcp.Main())
		}
		os.Exit(cmd.Main())
	}
	mcp.Serve = mcpserver.Serve
	os.Exit(m.Run())
}

// asForge is the test binary installed as forge with forge-mcp beside it,
// and the environment under which it is forge.
func asForge(t *testing.T, env map[string]string) (exe string, environ []string) {
	t.Helper()
	dir := companiontest.Install(t, "forge", companion.MCP)
	environ = []string{"PATH=" + os.Getenv("PATH"), "FORGE_MCP_TEST_AS_FORGE=1"}
	for k, v := range env {
		environ = append(environ, k+"="+v)
	}
	return filepath.Join(dir, "forge"), environ
}

// sdkDir is where the official TypeScript SDK is installed (.ci/run:
// npm install --prefix DIR @modelcontextprotocol/sdk), or the test skips.
func sdkDir(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed (.ci/run installs Debian's nodejs)")
	}
	dir := os.Getenv("FORGE_MCP_SDK_DIR")
	if dir == "" {
		home, _ := os.UserCacheDir()
		dir = filepath.Join(home, "forge-ci", "mcp-sdk")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules/@modelcontextprotocol/sdk/package.json")); err != nil {
		t.Skipf("@modelcontextprotocol/sdk is not installed in %s (.ci/run installs it; FORGE_MCP_SDK_DIR names another place)", dir)
	}
	return dir
}

// interopResult is what testdata/interop.mjs prints.
type interopResult struct {
	Server               struct{ Name string } `json:"server"`
	Tools                []string              `json:"tools"`
	Whoami, Issues, View struct {
		IsError           bool `json:"isError"`
		StructuredContent json.RawMessage
		Content           []struct{ Text string }
	}
}

func runInterop(t *testing.T, env map[string]string, args ...string) interopResult {
	t.Helper()
	c := exec.Command("node", append([]string{"testdata/interop.mjs", sdkDir(t)}, args...)...)
	_, c.Env = asForge(t, env)
	var stderr strings.Builder
	c.Stderr = &stderr
	out, err := c.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var r interopResult
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	return r
}

func checkInterop(t *testing.T, r interopResult) {
	t.Helper()
	if r.Server.Name != "forge" || !slices.Equal(sorted(r.Tools), mcpservertest.ReadTools()) {
		t.Errorf("server %q, tools %v", r.Server.Name, r.Tools)
	}
	// Each result comes once, as JSON text.
	text := func(c struct {
		IsError           bool `json:"isError"`
		StructuredContent json.RawMessage
		Content           []struct{ Text string }
	}) string {
		if len(c.Content) != 1 || c.StructuredContent != nil {
			return ""
		}
		return c.Content[0].Text
	}
	if r.Whoami.IsError || !strings.Contains(text(r.Whoami), `"login":"alice"`) {
		t.Errorf("whoami: %+v", r.Whoami)
	}
	if r.Issues.IsError || !strings.Contains(text(r.Issues), `"title":"From the reference server"`) {
		t.Errorf("issues_list: %+v", r.Issues)
	}
	if !r.View.IsError || len(r.View.Content) != 1 || !strings.HasPrefix(r.View.Content[0].Text, "HTTP 404: ") {
		t.Errorf("issue_view 99: %+v", r.View)
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// interopWorld is the world checkInterop expects, once the TypeScript
// SDK is known to be there.
func interopWorld(t *testing.T) *mcpservertest.World {
	t.Helper()
	sdkDir(t)
	h := mcpservertest.NewWorld(t)
	if _, err := h.Srv.CreateIssue("alice/demo", "alice", "From the reference server", ""); err != nil {
		t.Fatal(err)
	}
	return h
}

func TestTypeScriptSDKClientOverStdio(t *testing.T) {
	h := interopWorld(t)
	exe, _ := asForge(t, nil)
	checkInterop(t, runInterop(t, h.Env, "stdio", exe))
}

func TestTypeScriptSDKClientOverHTTP(t *testing.T) {
	h := interopWorld(t)
	url, token := httpServer(t, h)
	checkInterop(t, runInterop(t, nil, "http", url, token))
}
