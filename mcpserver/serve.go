package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"time"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/app/mcptools"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/build"
	"github.com/forgehq/forge/internal/origin"
	"github.com/forgehq/forge/regclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/net/netutil"
)

// Serve is `forge mcp serve`: the tools over stdio (f's streams), or
// over streamable HTTP with opts.HTTPAddr, until the client leaves or ctx
// ends. The tools use f's clients (the profile's credentials); the text
// they return is redacted with every secret f's settings hold.
func Serve(ctx context.Context, f *cmdutil.Factory, opts mcptools.ServeOptions) error {
	be := &backend{f: f}
	if opts.Repo != "" {
		// First: a host in -R selects the profile.
		r, err := f.BaseRepo(ctx, opts.Repo)
		if err != nil {
			return err
		}
		be.repo = &r
	}
	if _, err := f.Settings(); err != nil {
		return err
	}
	ms, err := New(Options{
		Backend: be, Toolsets: opts.Toolsets, Tools: opts.Tools,
		AllowWrite: opts.AllowWrite, Lockdown: opts.Lockdown,
		Redactor: f.Redactor(), Version: build.Version, RegistryHosts: opts.RegistryHosts, CodeCache: codeCache(f.Getenv),
	})
	if err != nil {
		return &cmdcore.UsageError{Err: err}
	}
	if opts.HTTPAddr != "" {
		return serveHTTP(ctx, f, opts, ms)
	}
	if f.IOStreams.IsStdinTTY() {
		fmt.Fprintln(f.IOStreams.ErrOut, "forge mcp serve speaks MCP on stdin and stdout, for an assistant to launch: `forge mcp config` prints the snippet (Ctrl-D ends)")
	}
	t := &mcp.IOTransport{Reader: io.NopCloser(f.IOStreams.In), Writer: nopCloser{&unescaper{w: f.IOStreams.Out}}}
	err = ms.Run(ctx, quietCancel{t})
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

func (b *backend) REST() (*client.Client, error) { return b.f.REST() }

// GitCredentials are the profile's login and REST token: the token of
// the base URL's origin, which clone checks the clone URL is on.
func (b *backend) GitCredentials() (string, string, error) {
	s, err := b.f.Settings()
	if err != nil {
		return "", "", err
	}
	return s.User, s.Token, nil
}

// codeCache is where the clones of repo_tree and code_search live:
// $XDG_CACHE_HOME/forge/code, else ~/.cache/forge/code.
func codeCache(getenv func(string) string) string {
	if d := getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "forge", "code")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".cache", "forge", "code")
	}
	return ""
}
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
func serveHTTP(ctx context.Context, f *cmdutil.Factory, opts mcptools.ServeOptions, ms *mcp.Server) error {
	ios := f.IOStreams
	host, _, err := net.SplitHostPort(opts.HTTPAddr)
	if err != nil {
		return cmdcore.UsageErrorf("--http %q: %v; give host:port, as 127.0.0.1:8765", opts.HTTPAddr, err)
	}
	if !opts.ListenAny && !origin.IsLoopback(host) {
		return cmdcore.UsageErrorf("--http %s is not a loopback address: anyone who can reach it could try the token; use 127.0.0.1:PORT, or pass --listen-any", opts.HTTPAddr)
	}
	token := f.Getenv("FORGE_MCP_TOKEN")
	if token == "" {
		b := make([]byte, 24)
		_, _ = rand.Read(b)
		token = hex.EncodeToString(b)
	}
	ln, err := net.Listen("tcp", opts.HTTPAddr)
	if err != nil {
		return fmt.Errorf("--http %s: %w", opts.HTTPAddr, err)
	}
	srv := httpServer(ms, token)
	ln = netutil.LimitListener(ln, MaxConns)
	url := "http://" + ln.Addr().String() + "/mcp"
	fmt.Fprintf(ios.ErrOut, "Serving MCP at %s until Ctrl-C\nAuthorization: Bearer %s\n", url, token)
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
