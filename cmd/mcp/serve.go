package mcp

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/build"
	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/forgehq/forge/internal/mcpserver"
	"github.com/forgehq/forge/internal/redact"
	"github.com/forgehq/forge/regclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
)

type serveOptions struct {
	f          *cmdutil.Factory
	repo       string
	toolsets   []string
	tools      []string
	allowWrite bool
	lockdown   bool
	httpAddr   string
	anyAddr    bool
	// ready, when set, is told the HTTP server's URL and token once it
	// listens (tests).
	ready func(url, token string)
}

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
			return runServe(cmd.Context(), opts)
		},
	}
	cmdutil.AddRepoFlag(cmd, &opts.repo)
	fl := cmd.Flags()
	fl.StringSliceVar(&opts.toolsets, "toolsets", nil, "Offer only these `toolsets` ("+strings.Join(mcpserver.Toolsets, ", ")+", all)")
	fl.StringSliceVar(&opts.tools, "tools", nil, "Offer only these `tools` by name (see `forge mcp tools`)")
	fl.BoolVar(&opts.allowWrite, "allow-write", false, "Offer the tools that change something on the service")
	fl.BoolVar(&opts.lockdown, "lockdown", false, "Withhold bodies by users without write access to the repository")
	fl.StringVar(&opts.httpAddr, "http", "", "Serve streamable HTTP on `ADDR` (host:port; port 0 picks one) instead of stdio")
	fl.BoolVar(&opts.anyAddr, "listen-any", false, "Allow --http on an address other than loopback")
	return cmd
}

// fromEnv fills what no flag set from FORGE_MCP_*.
func (o *serveOptions) fromEnv(cmd *cobra.Command) error {
	getenv := o.f.Getenv
	list := func(flag, env string, target *[]string) {
		if v := getenv(env); v != "" && !cmd.Flags().Changed(flag) {
			*target = strings.Split(v, ",")
		}
	}
	list("toolsets", "FORGE_MCP_TOOLSETS", &o.toolsets)
	list("tools", "FORGE_MCP_TOOLS", &o.tools)
	for _, b := range []struct {
		flag, env string
		target    *bool
	}{{"allow-write", "FORGE_MCP_ALLOW_WRITE", &o.allowWrite}, {"lockdown", "FORGE_MCP_LOCKDOWN", &o.lockdown}} {
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

func runServe(ctx context.Context, opts *serveOptions) error {
	f := opts.f
	be := &backend{f: f}
	if opts.repo != "" {
		// First: a host in -R selects the profile.
		r, err := f.BaseRepo(ctx, opts.repo)
		if err != nil {
			return err
		}
		be.repo = &r
	}
	s, err := f.Settings()
	if err != nil {
		return err
	}
	red := redact.New(redact.Held(*s, f.Getenv)...)
	ms, err := mcpserver.New(mcpserver.Options{
		Backend: be, Toolsets: opts.toolsets, Tools: opts.tools,
		AllowWrite: opts.allowWrite, Lockdown: opts.lockdown,
		Redact: red.Text, Version: build.Version,
	})
	if err != nil {
		return &cmdutil.UsageError{Err: err}
	}
	if opts.httpAddr != "" {
		return serveHTTP(ctx, opts, ms)
	}
	t := &mcp.IOTransport{Reader: io.NopCloser(f.IOStreams.In), Writer: nopCloser{f.IOStreams.Out}}
	err = ms.Run(ctx, t)
	if ctx.Err() != nil {
		return context.Canceled
	}
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, mcp.ErrConnectionClosed) {
		return fmt.Errorf("the MCP connection: %w", err)
	}
	return nil
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// backend is the tools' way to the service: the Factory's clients, with
// the profile's origin-bound credentials.
type backend struct {
	f    *cmdutil.Factory
	repo *client.RepoName // -R, resolved at start-up
}

func (b *backend) REST() (*client.Client, error)        { return b.f.REST() }
func (b *backend) Registry() (*regclient.Client, error) { return b.f.Registry() }

// Repo is the repository a tool names (OWNER/REPO: a tool cannot switch
// the profile to another host), else -R, else FORGE_REPO or the git
// remote.
func (b *backend) Repo(ctx context.Context, repo string) (client.RepoName, error) {
	if repo != "" {
		r, err := client.ParseRepoName(repo)
		if err != nil {
			return r, fmt.Errorf("repo %q: give it as OWNER/REPO", repo)
		}
		return r, nil
	}
	if b.repo != nil {
		return *b.repo, nil
	}
	r, err := b.f.BaseRepo(ctx, "")
	if err != nil {
		return r, fmt.Errorf("no default repository (%v): give repo as OWNER/REPO", err)
	}
	return r, nil
}

// serveHTTP serves the streamable HTTP transport at /mcp until ctx ends.
func serveHTTP(ctx context.Context, opts *serveOptions, ms *mcp.Server) error {
	ios := opts.f.IOStreams
	host, _, err := net.SplitHostPort(opts.httpAddr)
	if err != nil {
		return cmdutil.UsageErrorf("--http %q: %v; give host:port, as 127.0.0.1:8765", opts.httpAddr, err)
	}
	if !opts.anyAddr && !loopback(host) {
		return cmdutil.UsageErrorf("--http %s is not a loopback address: anyone who can reach it could try the token; use 127.0.0.1:PORT, or pass --listen-any", opts.httpAddr)
	}
	token := opts.f.Getenv("FORGE_MCP_TOKEN")
	if token == "" {
		b := make([]byte, 24)
		_, _ = rand.Read(b)
		token = hex.EncodeToString(b)
	}
	ln, err := net.Listen("tcp", opts.httpAddr)
	if err != nil {
		return fmt.Errorf("--http %s: %w", opts.httpAddr, err)
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return ms }, &mcp.StreamableHTTPOptions{SessionTimeout: 30 * time.Minute})
	mux := http.NewServeMux()
	mux.Handle("/mcp", bearer(token, h))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	url := "http://" + ln.Addr().String() + "/mcp"
	fmt.Fprintf(ios.ErrOut, "Serving MCP at %s until Ctrl-C\nAuthorization: Bearer %s\n", url, token)
	if opts.ready != nil {
		opts.ready(url, token)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		return context.Canceled
	}
}

func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// bearer refuses requests without the token (compared in constant time).
func bearer(token string, next http.Handler) http.Handler {
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="forge mcp"`)
			http.Error(w, "forge mcp: a bearer token is required (printed by forge mcp serve at start-up)", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}
