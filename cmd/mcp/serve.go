package mcp

import (
	"context"
	"strconv"
	"strings"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/mcptools"
	"github.com/forgehq/forge/cmd/companion"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

type serveOptions struct {
	cmdutil.Deps
	o mcptools.ServeOptions
	// serve runs the server, here or in forge-mcp with the flags given
	// (handOff).
	serve func(ctx context.Context, o mcptools.ServeOptions, flags []string) error
	flags []string
}

// Serve runs the server in this process. forge itself leaves it nil and
// hands `forge mcp serve` to its companion forge-mcp (package companion),
// which sets it (cmd/forge-mcp): the MCP SDK is linked there only, so its
// package initialisation does not slow every other forge command.
var Serve func(context.Context, *cmdutil.Factory, mcptools.ServeOptions) error

func newServeCmd(f *cmdutil.Factory, runF func(context.Context, *serveOptions) error) *cobra.Command {
	opts := &serveOptions{Deps: f.Deps(), serve: func(ctx context.Context, o mcptools.ServeOptions, flags []string) error {
		if Serve != nil {
			return Serve(ctx, f, o)
		}
		return companion.Exec(f, companion.MCP, append([]string{"mcp", "serve"}, flags...))
	}}
	runF = cmdcore.Seam(runF, runServe)
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the hosting service as MCP tools, over stdio or HTTP",
		Long: `Serve the hosting service to an AI coding assistant over the Model Context
Protocol: repositories, issues, pull requests, releases, CI runs and logs, the
container registry and the account, as tools the assistant calls with the
credentials of your forge profile (--profile, FORGE_* as for every command).

The assistant launches ` + "`forge mcp serve`" + ` and speaks MCP on its stdin and stdout
(` + "`forge mcp config`" + ` prints the snippet). With --http ADDR it serves the streamable
HTTP transport at http://ADDR/mcp instead, on a loopback address only unless
--listen-any, and refuses every request without the bearer token it prints
on stderr at start-up (FORGE_MCP_TOKEN sets it).

It is read-only unless --allow-write: the tools that change something (open,
comment on, close and reopen issues; delete an image tag) are not even listed
without it. --toolsets and --tools narrow what is offered (` + "`forge mcp tools`" + `
lists them). Files, logs and titles reach the model as they are, terminal
controls and invisible characters made visible; in issue, pull request,
comment and release bodies what the rendered page hides (HTML comments, hidden
markup) is replaced by a marker, outside code; every secret forge holds is
masked; --lockdown withholds what
users without write access to the repository wrote: the titles and bodies of
issues and pull requests, comments, release names and notes, a run's title
and branch, a fork's branch name (a marker names the author; numbers, states,
authors and dates stay). Results are bounded (about 64 KiB): a long one ends
with a note saying which page to ask for next.

The image tools contact the profile's registry only: a model naming another
host gets an error, not a request; --allow-registry HOST allows more.

Environment: FORGE_MCP_TOOLSETS, FORGE_MCP_TOOLS, FORGE_MCP_ALLOW_REGISTRY (comma lists),
FORGE_MCP_ALLOW_WRITE=1, FORGE_MCP_LOCKDOWN=1, FORGE_MCP_TOKEN; flags win.`,
		Example: `  forge mcp serve
  forge mcp serve --toolsets issues,actions -R alice/demo
  forge mcp serve --allow-write --lockdown
  forge mcp serve --http 127.0.0.1:8765`,
		Args: cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.fromEnv(cmd); err != nil {
				return err
			}
			opts.flags = givenFlags(cmd)
			return runF(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.o.Repo)
	fl := cmd.Flags()
	fl.StringSliceVar(&opts.o.Toolsets, "toolsets", nil, "Offer only these `toolsets` ("+strings.Join(mcptools.Toolsets, ", ")+", all)")
	fl.StringSliceVar(&opts.o.Tools, "tools", nil, "Offer only these `tools` by name (see `forge mcp tools`)")
	fl.BoolVar(&opts.o.AllowWrite, "allow-write", false, "Offer the tools that change something on the service")
	fl.BoolVar(&opts.o.Lockdown, "lockdown", false, "Withhold titles and bodies by users without write access to the repository")
	fl.StringVar(&opts.o.HTTPAddr, "http", "", "Serve streamable HTTP on `ADDR` (host:port; port 0 picks one) instead of stdio")
	fl.BoolVar(&opts.o.ListenAny, "listen-any", false, "Allow --http on an address other than loopback")
	fl.StringSliceVar(&opts.o.RegistryHosts, "allow-registry", nil, "Let the image tools contact these registry `hosts` too (default: the profile's registry only)")
	return cmd
}

// fromEnv fills what no flag set from FORGE_MCP_*.
func (o *serveOptions) fromEnv(cmd *cobra.Command) error {
	getenv := o.Getenv
	list := func(flag, env string, target *[]string) {
		if v := getenv(env); v != "" && !cmd.Flags().Changed(flag) {
			*target = strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' })
		}
	}
	list("toolsets", "FORGE_MCP_TOOLSETS", &o.o.Toolsets)
	list("tools", "FORGE_MCP_TOOLS", &o.o.Tools)
	list("allow-registry", "FORGE_MCP_ALLOW_REGISTRY", &o.o.RegistryHosts)
	for _, b := range []struct {
		flag, env string
		target    *bool
	}{{"allow-write", "FORGE_MCP_ALLOW_WRITE", &o.o.AllowWrite}, {"lockdown", "FORGE_MCP_LOCKDOWN", &o.o.Lockdown}} {
		v := getenv(b.env)
		if v == "" || cmd.Flags().Changed(b.flag) {
			continue
		}
		on, err := strconv.ParseBool(v)
		if err != nil {
			return cmdcore.UsageErrorf("%s=%q is not true or false (1 or 0)", b.env, v)
		}
		*b.target = on
	}
	return nil
}

func runServe(ctx context.Context, opts *serveOptions) error {
	return opts.serve(ctx, opts.o, opts.flags)
}

// givenFlags are the flags given to cmd, as forge-mcp is handed them
// when it runs in forge's place (package companion: found and run as
// forge-server is for `forge serve`).
func givenFlags(cmd *cobra.Command) []string {
	var args []string
	cmd.Flags().Visit(func(fl *pflag.Flag) {
		v := fl.Value.String()
		if sv, ok := fl.Value.(pflag.SliceValue); ok {
			v = strings.Join(sv.GetSlice(), ",")
		}
		args = append(args, "--"+fl.Name+"="+v)
	})
	return args
}
