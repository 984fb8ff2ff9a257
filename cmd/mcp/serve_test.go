package mcp_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/cmd"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/mcpserver/mcpservertest"
)

// The server's tools and safety are tested in mcpserver; here, the
// command line: flags and FORGE_MCP_* as `forge mcp serve` reads them,
// `forge mcp config`, the hand-off to forge-mcp and clients launching it.

// result is what a run of forge left.
type result struct {
	Code     int
	Out, Err string
}

// run runs forge in-process, piped, with h's environment.
func run(h *mcpservertest.World, args ...string) result {
	ios, _, out, errOut := iostreams.Test()
	code := cmd.Run(context.Background(), h.Factory(ios), args)
	return result{code, out.String(), errOut.String()}
}

// forge is `forge ARGS` as a server for mcpservertest.
func forge(args ...string) mcpservertest.Run {
	return func(ctx context.Context, f *cmdutil.Factory) int { return cmd.Run(ctx, f, args) }
}

// serve runs `forge mcp serve ARGS` in-process, as an assistant would
// launch it, and connects the SDK's client over its stdio.
func serve(t *testing.T, h *mcpservertest.World, args ...string) *mcpservertest.Session {
	t.Helper()
	return mcpservertest.Connect(t, h, forge(append([]string{"mcp", "serve"}, args...)...))
}

// httpServer runs `forge mcp serve --http 127.0.0.1:0 ARGS` in-process
// and returns the URL and token it printed.
func httpServer(t *testing.T, h *mcpservertest.World, args ...string) (url, token string) {
	t.Helper()
	return mcpservertest.HTTP(t, h, forge(append([]string{"mcp", "serve", "--http", "127.0.0.1:0"}, args...)...))
}

func TestToolsetsAndToolsNarrowTheOffer(t *testing.T) {
	h := mcpservertest.NewWorld(t)
	if got := serve(t, h, "--toolsets", "pulls,releases").ToolNames(); !slices.Equal(got, []string{"pr_checks", "pr_commits", "pr_diff", "pr_files", "pr_view", "prs_list", "release_view", "releases_list"}) {
		t.Errorf("--toolsets pulls,releases: %v", got)
	}
	h.Env["FORGE_MCP_TOOLS"] = "whoami, issue_view"
	if got := serve(t, h).ToolNames(); !slices.Equal(got, []string{"issue_view", "whoami"}) {
		t.Errorf("FORGE_MCP_TOOLS: %v", got)
	}
	h.Env["FORGE_MCP_ALLOW_WRITE"] = "1"
	h.Env["FORGE_MCP_TOOLS"] = ""
	if got := serve(t, h, "--toolsets", "issues").ToolNames(); !slices.Equal(got, []string{"issue_close", "issue_comment", "issue_create", "issue_reopen", "issue_view", "issues_list"}) {
		t.Errorf("FORGE_MCP_ALLOW_WRITE=1 --toolsets issues: %v", got)
	}
	for _, tool := range serve(t, h, "--toolsets", "registry", "--allow-registry", "registry.example:5000").Tools() {
		if !*tool.Annotations.OpenWorldHint {
			t.Errorf("--allow-registry: %s is not open world", tool.Name)
		}
	}
	r := run(h, "mcp", "serve", "--toolsets", "wiki")
	if r.Code != 2 || !strings.Contains(r.Err, `unknown toolset "wiki"; the toolsets are repos, issues, pulls`) {
		t.Errorf("unknown toolset: exit %d, %q", r.Code, r.Err)
	}
}

func TestHTTPOnlyOnLoopbackUnlessTold(t *testing.T) {
	h := mcpservertest.NewWorld(t)
	r := run(h, "mcp", "serve", "--http", "0.0.0.0:0")
	if r.Code != 2 || !strings.Contains(r.Err, "--http 0.0.0.0:0 is not a loopback address") || !strings.Contains(r.Err, "--listen-any") {
		t.Errorf("exit %d, %q", r.Code, r.Err)
	}
	h.Env["FORGE_MCP_TOKEN"] = "a-token-given-by-the-user"
	_, token := httpServer(t, h)
	if token != "a-token-given-by-the-user" {
		t.Errorf("FORGE_MCP_TOKEN: printed %q", token)
	}
}

func TestConfigSnippets(t *testing.T) {
	h := mcpservertest.NewWorld(t)
	for client, top := range map[string]string{"claude": "mcpServers", "vscode": "servers", "cursor": "mcpServers"} {
		r := run(h, "--profile", "default", "mcp", "config", "--client", client, "--toolsets", "issues,actions", "--lockdown")
		if r.Code != 0 {
			t.Fatalf("%s: exit %d: %s", client, r.Code, r.Err)
		}
		var doc map[string]map[string]struct {
			Type    string            `json:"type"`
			Command string            `json:"command"`
			Args    []string          `json:"args"`
			Env     map[string]string `json:"env"`
		}
		if err := json.Unmarshal([]byte(r.Out), &doc); err != nil {
			t.Fatalf("%s: %v in %s", client, err, r.Out)
		}
		e := doc[top]["forge"]
		if e.Command == "" || strings.Join(e.Args, " ") != "mcp serve --toolsets issues,actions --lockdown" || e.Env["FORGE_PROFILE"] != "default" {
			t.Errorf("%s: %s", client, r.Out)
		}
		if (client == "vscode") != (e.Type == "stdio") {
			t.Errorf("%s: type %q", client, e.Type)
		}
		if strings.Contains(r.Out, h.Env["FORGE_TOKEN"]) || !strings.Contains(r.Err, "Put this in ") {
			t.Errorf("%s: stdout %s stderr %s", client, r.Out, r.Err)
		}
	}
	if r := run(h, "mcp", "config", "--client", "emacs"); r.Code != 2 || !strings.Contains(r.Err, "give claude, vscode or cursor") {
		t.Errorf("unknown client: %d %q", r.Code, r.Err)
	}
}
