package mcp_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/forgehq/forge/app/mcptools"
	"github.com/forgehq/forge/cmd/companion"
	"github.com/forgehq/forge/cmd/companion/companiontest"
	"github.com/forgehq/forge/mcpserver/mcpservertest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// forge as it ships does not link the MCP SDK: `forge mcp serve` runs
// forge-mcp, installed beside it here, with the same flags and streams.
func TestForgeHandsTheServeToForgeMCP(t *testing.T) {
	h := mcpservertest.NewWorld(t)
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
	if err != nil || res.IsError || !strings.Contains(mcpservertest.Text(res), `"login":"alice"`) {
		t.Errorf("whoami through forge-mcp: %v %+v", err, res)
	}
}

// forge without forge-mcp, outside a clone, says where it looked and how
// to get it, and exits 1.
func TestForgeWithoutForgeMCPSaysHowToGetIt(t *testing.T) {
	dir := companiontest.Install(t, "forge")
	c := exec.Command(filepath.Join(dir, "forge"), "mcp", "serve")
	c.Dir = t.TempDir()
	c.Env = []string{"PATH=" + t.TempDir(), "FORGE_MCP_TEST_AS_FORGE=1", "HOME=" + t.TempDir()}
	out, err := c.CombinedOutput()
	want := "forge: forge-mcp is not installed beside forge (in " + dir + ") nor on the PATH: install a release or package of forge, which ships both, or from a clone run `go build -o " + filepath.Join(dir, "forge-mcp") + " ./cmd/forge-mcp`\n"
	if code := c.ProcessState.ExitCode(); code != 1 || string(out) != want {
		t.Errorf("exit %d (%v): %s\nwant: %s", code, err, out, want)
	}
}

// An editor starts `forge mcp serve` in whatever directory it has open:
// in a tree whose go.mod names forge's module but which forge was not
// built from, forge without an installed forge-mcp neither builds nor runs
// the tree's cmd/forge-mcp (its code would run with the user's
// credentials); it says forge-mcp is missing, as anywhere else.
func TestForgeNeverBuildsForgeMCPFromAStrangersClone(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool")
	}
	dir := companiontest.Install(t, "forge")
	clone := companiontest.Clone(t, companion.MCP)
	c := exec.Command(filepath.Join(dir, "forge"), "mcp", "serve", "--tools", "whoami,issue_view", "--lockdown")
	c.Dir = clone
	cache := t.TempDir()
	c.Env = []string{"PATH=" + filepath.Dir(gobin), "FORGE_MCP_TEST_AS_FORGE=1", "HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + cache}
	var stdout, stderr strings.Builder
	c.Stdout, c.Stderr = &stdout, &stderr
	c.Run()
	want := "forge: forge-mcp is not installed beside forge (in " + dir + ") nor on the PATH: install a release or package of forge, which ships both, or from a clone run `go build -o " + filepath.Join(dir, "forge-mcp") + " ./cmd/forge-mcp`\n"
	if code := c.ProcessState.ExitCode(); code != 1 || stdout.String() != "" || stderr.String() != want {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	if companiontest.Ran(clone) {
		t.Error("forge ran the clone's forge-mcp")
	}
	if _, err := os.Stat(filepath.Join(cache, "forge", "companion")); err == nil {
		t.Error("forge built something into its cache")
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
		if strings.HasPrefix(p, "github.com/modelcontextprotocol/") || strings.HasPrefix(p, "github.com/google/jsonschema-go") || p == "github.com/forgehq/forge/mcpserver" {
			t.Errorf("forge links %s", p)
		}
	}
}

// forge-mcp is the MCP server and forge's root alone: not a third copy of
// forge's commands and terminal UI (bench/README.md, "Companions decided
// again").
func TestForgeMCPLinksNoOtherCommand(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/forgehq/forge/cmd/forge-mcp").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "github.com/forgehq/forge/cmd" || p == "github.com/forgehq/forge/cmd/issue" || strings.HasPrefix(p, "github.com/forgehq/forge/tui") || strings.HasPrefix(p, "charm.land/bubbletea") {
			t.Errorf("forge-mcp links %s", p)
		}
	}
}

// TestForgeMCPExecutesNoTemplate: forge-mcp can execute no template
// (cobra's version, usage or help templates among them), which would keep
// every exported method in the binary: 3.8 MB more.
func TestForgeMCPExecutesNoTemplate(t *testing.T) {
	if companiontest.ExecutesTemplates(t, "github.com/forgehq/forge/cmd/forge-mcp") {
		t.Error("forge-mcp links text/template's executor: a template is set or executed on its path (rootcmd's --version is cobra's default function for that reason)")
	}
}
