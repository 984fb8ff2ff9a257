package mcp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/forgehq/forge/internal/mcptools"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

type serveOptions struct {
	f *cmdutil.Factory
	o mcptools.ServeOptions
}

// Serve runs the server in this process. forge itself leaves it nil and
// hands `forge mcp serve` to the forge-mcp binary beside it, which sets it
// (cmd/forge-mcp): the MCP SDK is linked there only, so its package
// initialisation does not slow every other forge command.
var Serve func(context.Context, *cmdutil.Factory, mcptools.ServeOptions) error

func newServeCmd(f *cmdutil.Factory) *cobra.Command {
	opts := &serveOptions{f: f}
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
lists them). Every string from the service is cleaned before the model sees
it (terminal escapes, invisible and bidi characters, HTML comments and hidden
markup) and every secret forge holds is masked; --lockdown withholds issue,
comment and pull request bodies by users without write access to the
repository. Results are bounded (about 64 KiB): a long one ends with a note
saying which page to ask for next.

Environment: FORGE_MCP_TOOLSETS, FORGE_MCP_TOOLS (comma lists),
FORGE_MCP_ALLOW_WRITE=1, FORGE_MCP_LOCKDOWN=1, FORGE_MCP_TOKEN; flags win.`,
		Example: `  forge mcp serve
  forge mcp serve --toolsets issues,actions -R alice/demo
  forge mcp serve --allow-write --lockdown
  forge mcp serve --http 127.0.0.1:8765`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.fromEnv(cmd); err != nil {
				return err
			}
			if Serve != nil {
				return Serve(cmd.Context(), f, opts.o)
			}
			return handOff(cmd.Context(), f, cmd)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.o.Repo)
	fl := cmd.Flags()
	fl.StringSliceVar(&opts.o.Toolsets, "toolsets", nil, "Offer only these `toolsets` ("+strings.Join(mcptools.Toolsets, ", ")+", all)")
	fl.StringSliceVar(&opts.o.Tools, "tools", nil, "Offer only these `tools` by name (see `forge mcp tools`)")
	fl.BoolVar(&opts.o.AllowWrite, "allow-write", false, "Offer the tools that change something on the service")
	fl.BoolVar(&opts.o.Lockdown, "lockdown", false, "Withhold bodies by users without write access to the repository")
	fl.StringVar(&opts.o.HTTPAddr, "http", "", "Serve streamable HTTP on `ADDR` (host:port; port 0 picks one) instead of stdio")
	fl.BoolVar(&opts.o.ListenAny, "listen-any", false, "Allow --http on an address other than loopback")
	return cmd
}

// fromEnv fills what no flag set from FORGE_MCP_*.
func (o *serveOptions) fromEnv(cmd *cobra.Command) error {
	getenv := o.f.Getenv
	list := func(flag, env string, target *[]string) {
		if v := getenv(env); v != "" && !cmd.Flags().Changed(flag) {
			*target = strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' })
		}
	}
	list("toolsets", "FORGE_MCP_TOOLSETS", &o.o.Toolsets)
	list("tools", "FORGE_MCP_TOOLS", &o.o.Tools)
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
			return cmdutil.UsageErrorf("%s=%q is not true or false (1 or 0)", b.env, v)
		}
		*b.target = on
	}
	return nil
}

// handOff runs forge-mcp (beside forge's executable, else on PATH) with
// the same flags on forge's own streams, and exits as it exits.
func handOff(ctx context.Context, f *cmdutil.Factory, cmd *cobra.Command) error {
	exe, err := serverPath()
	if err != nil {
		return err
	}
	args := []string{"mcp", "serve"}
	cmd.Flags().Visit(func(fl *pflag.Flag) {
		v := fl.Value.String()
		if sv, ok := fl.Value.(pflag.SliceValue); ok {
			v = strings.Join(sv.GetSlice(), ",")
		}
		args = append(args, "--"+fl.Name+"="+v)
	})
	c := exec.CommandContext(ctx, exe, args...)
	c.Stdin, c.Stdout, c.Stderr = f.IOStreams.In, f.IOStreams.Out, f.IOStreams.ErrOut
	c.Cancel = func() error { return c.Process.Signal(os.Interrupt) }
	c.WaitDelay = 10 * time.Second
	err = c.Run()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return context.Canceled
	case errors.As(err, &exit):
		return &cmdutil.ExitError{Code: exit.ExitCode()}
	case err != nil:
		return fmt.Errorf("running %s: %w", exe, err)
	}
	return nil
}

// ServerBinary is the program that serves MCP for forge.
const ServerBinary = "forge-mcp"

func serverPath() (string, error) {
	name := ServerBinary
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	self, err := os.Executable()
	if err == nil {
		if p := filepath.Join(filepath.Dir(self), name); isFile(p) {
			return p, nil
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("forge mcp serve runs %s, which is neither beside %s nor on PATH: install it with forge (release archives and packages hold both), or `go install github.com/forgehq/forge/cmd/forge-mcp@latest`", name, self)
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}
