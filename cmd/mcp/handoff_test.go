package mcp_test

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/mcptools"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// forge as it ships does not link the MCP SDK: `forge mcp serve` runs
// forge-mcp, found on PATH here, with the same flags and streams.
func TestForgeHandsTheServeToForgeMCP(t *testing.T) {
	h := world(t)
	exe, env := asForge(t, h.Env)
	c := exec.Command(exe, "mcp", "serve", "--allow-write", "--toolsets=issues,account")
	c.Env = env
	var stderr strings.Builder
	c.Stderr = &stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "forge-test", Version: "1"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: c}, nil)
	if err != nil {
		t.Fatalf("%v; stderr %s", err, stderr.String())
	}
	defer cs.Close()
	var names []string
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
	}
	var want []string
	for _, tool := range mcptools.All {
		if tool.Toolset == "issues" || tool.Toolset == "account" {
			want = append(want, tool.Name)
		}
	}
	if !slices.Equal(sorted(names), sorted(want)) {
		t.Errorf("tools through forge-mcp: %v, want %v", names, want)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "whoami"})
	if err != nil || res.IsError || !strings.Contains(resultText(res), `"login":"alice"`) {
		t.Errorf("whoami through forge-mcp: %v %+v", err, res)
	}
}

func TestForgeWithoutForgeMCPSaysHowToGetIt(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c := exec.Command(exe, "mcp", "serve")
	c.Env = []string{"PATH=" + t.TempDir(), "FORGE_MCP_TEST_AS_FORGE=1", "HOME=" + t.TempDir()}
	out, err := c.CombinedOutput()
	if code := c.ProcessState.ExitCode(); code != 1 || !strings.Contains(string(out), "forge: forge mcp serve runs forge-mcp, which is neither beside ") ||
		!strings.Contains(string(out), "go install github.com/forgehq/forge/cmd/forge-mcp@latest") {
		t.Errorf("exit %d (%v): %s", code, err, out)
	}
}

// The point of forge-mcp: forge itself links nothing of the MCP SDK
// (bench/README.md, "Start-up with the MCP SDK").
func TestForgeDoesNotLinkTheSDK(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/forgehq/forge/cmd/forge").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "github.com/modelcontextprotocol/") || strings.HasPrefix(p, "github.com/google/jsonschema-go") || p == "github.com/forgehq/forge/internal/mcpserver" {
			t.Errorf("forge links %s", p)
		}
	}
}
