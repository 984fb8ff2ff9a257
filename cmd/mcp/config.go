package mcp

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/spf13/cobra"
)

type configOptions struct {
	cmdutil.Deps
	client     string
	repo       string
	toolsets   []string
	allowWrite bool
	lockdown   bool
}

// clients are the assistants config knows, with where their file is.
var clients = []string{"claude", "vscode", "cursor"}

func newConfigCmd(f *cmdutil.Factory, runF func(context.Context, *configOptions) error) *cobra.Command {
	opts := &configOptions{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runConfig)
	cmd := &cobra.Command{
		Use:   "config --client claude|vscode|cursor",
		Short: "Print the snippet that connects an assistant to `forge mcp serve`",
		Long: `Print the JSON an assistant needs to launch ` + "`forge mcp serve`" + ` (command, args,
env) on stdout, and on stderr where it goes:

  claude   .mcp.json in the project (Claude Code; or ` + "`claude mcp add`" + `), or
           claude_desktop_config.json (Claude Desktop)
  vscode   .vscode/mcp.json in the workspace
  cursor   .cursor/mcp.json in the project, or ~/.cursor/mcp.json

The snippet names forge by its absolute path and carries no secret: the
server uses the profile's stored credentials (--profile is passed on as
FORGE_PROFILE).`,
		Example: `  forge mcp config --client claude > .mcp.json
  forge mcp config --client vscode --toolsets issues,actions -R alice/demo
  forge --profile work mcp config --client cursor --allow-write`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.repo)
	fl := cmd.Flags()
	fl.StringVar(&opts.client, "client", "", "The assistant: `claude`, vscode or cursor")
	fl.StringSliceVar(&opts.toolsets, "toolsets", nil, "Offer only these `toolsets`")
	fl.BoolVar(&opts.allowWrite, "allow-write", false, "Let the assistant change things (issues, image tags)")
	fl.BoolVar(&opts.lockdown, "lockdown", false, "Withhold titles and bodies by users without write access")
	return cmd
}

// serverEntry is one server in an assistant's configuration.
type serverEntry struct {
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env,omitempty"`
}

func runConfig(_ context.Context, opts *configOptions) error {
	if !slices.Contains(clients, opts.client) {
		return cmdcore.UsageErrorf("--client %q: give claude, vscode or cursor", opts.client)
	}
	exe, err := os.Executable()
	if err != nil {
		exe = "forge"
	}
	e := serverEntry{Command: exe, Args: []string{"mcp", "serve"}}
	if len(opts.toolsets) > 0 {
		e.Args = append(e.Args, "--toolsets", strings.Join(opts.toolsets, ","))
	}
	if opts.allowWrite {
		e.Args = append(e.Args, "--allow-write")
	}
	if opts.lockdown {
		e.Args = append(e.Args, "--lockdown")
	}
	if opts.repo != "" {
		e.Args = append(e.Args, "--repo", opts.repo)
	}
	if p := opts.ProfileChoice(); p != "" {
		e.Env = map[string]string{"FORGE_PROFILE": p}
	}
	doc := map[string]any{}
	where := ""
	switch opts.client {
	case "claude":
		doc["mcpServers"] = map[string]serverEntry{"forge": e}
		where = "Put this in .mcp.json at the project's top (Claude Code) or in claude_desktop_config.json (Claude Desktop)"
	case "vscode":
		e.Type = "stdio"
		doc["servers"] = map[string]serverEntry{"forge": e}
		where = "Put this in .vscode/mcp.json in the workspace"
	case "cursor":
		doc["mcpServers"] = map[string]serverEntry{"forge": e}
		where = "Put this in .cursor/mcp.json in the project, or ~/.cursor/mcp.json for every project"
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	ios := opts.IO
	if err := ios.Printf("%s\n", iostreams.Lines(b)); err != nil {
		return err
	}
	ios.ErrPrintf("%s (merge it with the servers already there).\n", where)
	return nil
}
