// Package serve implements `forge serve`: the bundled reference server of
// the whole service (REST API, agent API, registry) in the foreground.
package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/cmd/companion/helptext"
	"github.com/forgehq/forge/cmd/internal/rootcmd"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/internal/origin"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/agent"
	"github.com/forgehq/forge/refserver/store"
	"github.com/spf13/cobra"
)

// Options hold `forge serve`'s flags.
type Options struct {
	cmdcore.Deps
	Addr          string
	ListenAny     bool
	DataDir       string
	AdminUser     string
	AdminPassword string
	Demo          bool
	EnvFile       string
	CITick        time.Duration
	AgentKey      string
	AgentDelay    time.Duration
	RateLimit     float64
	PublicURL     string
	MaxConns      int
	MaxPerAddr    int
	RequestTO     time.Duration
	TransferTO    time.Duration
	PushSpoolMiB  int64
	// Memory keeps all state in memory; otherwise DataDir, by default
	// (defaultData, set by the command line) DefaultDataDir.
	Memory      bool
	defaultData bool
	// UntilStdinEOF stops the server, as Ctrl-C does, when stdin ends
	// (hidden --until-stdin-eof): forge demo runs forge-server with a pipe
	// it holds as stdin, so the server ends with the demo however the demo
	// ends, SIGKILL included, on every system.
	UntilStdinEOF bool
	// ready, when set, is called with the server once it listens (tests).
	ready func(*refserver.Server)
}

// Main runs forge-server (cmd/forge-server) with the process's arguments
// and returns the exit code: forge's root with `serve` alone, which forge
// runs for `forge serve` and `forge demo` (package companion). serve uses
// no client of the service, so it is built from cmdcore's Globals, not
// cmdutil's Factory: forge-server links no client, configuration or
// keyring.
func Main() int {
	g := &cmdcore.Globals{IOStreams: iostreams.System(), Getenv: os.Getenv}
	return rootcmd.Main(g, NewCmd(g))
}

// Run is Main with Globals and arguments of the caller's (tests).
func Run(ctx context.Context, g *cmdcore.Globals, args []string) int {
	return rootcmd.Run(ctx, g, args, NewCmd(g))
}

// NewCmd returns `forge serve`.
func NewCmd(f *cmdcore.Globals) *cobra.Command { return newServeCmd(f, nil) }

func newServeCmd(f *cmdcore.Globals, runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{Deps: f.Deps()}
	runF = cmdcore.Seam(runF, runServe)
	cmd := &cobra.Command{
		Use:   "serve",
		Short: helptext.Serve.Short,
		Long: `Run forge's reference server in the foreground until Ctrl-C: the REST API
under /api/v2, the agent chat API under /api/v1 and the container registry
under /v2/, all on one loopback address (--listen-any allows another).

Once it listens, serve prints shell-sourceable settings on stdout — what
every user of the server needs: FORGE_BASE_URL, AGENT_URL, AGENT_API_KEY
and FORGE_REGISTRY_URL — and, with --env-file, writes the same lines to
that file (mode 0600). Load them into a shell with
  set -a; . ./forge.env; set +a
The site_admin's login is not among them (sourcing them must not make a
user the admin): serve prints it once on stderr and, unless --memory, keeps
it as FORGE_USERNAME and FORGE_PASSWORD lines in DIR/admin.env (mode 0600).

State is kept across restarts (every acknowledged write is on disk) in
--data DIR, by default $XDG_DATA_HOME/forge/serve (else
~/.local/share/forge/serve): stop the server, start it again, and tokens,
accounts, repositories, the admin's password and the agent key are the
same. --memory keeps everything in memory, gone at exit (for throwaway
servers and tests); a token, or agent key, of an earlier run is then
answered 401 saying so. With no --admin-password a password is generated
(and kept so later starts print it again). --demo seeds a small
world of users, repositories, issues, pull requests, releases and CI runs
into an empty server; every demo account's password is ` + refserver.DemoPassword + `.

Limits, so that slow or greedy clients cannot take the server from its
users (each one tested, and documented in refserver/README.md):
  - connections: at most --max-conns open at once (default 4096, lowered
    to ulimit -n less 128 when that is smaller), at most --max-conns-per-addr from one IP address
    (default 256); one past either gets 503 and is closed at once
  - deadlines: a request's headers must arrive within 10 s; its body
    within --request-timeout of them (default 30 s, else 408) and its whole
    answer within twice that; transfers (git clone/fetch/push, the
    registry's /v2/, raw file downloads, agent streams) get
    --transfer-timeout (default 10m) for each instead
  - bodies: REST and agent requests at most 1 MiB (413); a git push at
    most 2 GiB, read whole before the repository is locked, and a
    gzip-encoded one at most 10 times its size plus 1 MiB once inflated
    (413); the pushes being received at once at most --max-push-spool
    MiB together (default 4096; 503 with Retry-After past it)
  - contents: a file's content inline (base64 in JSON) up to 1 MiB; a
    larger file is a 403 naming the raw download,
    GET /api/v2/repos/OWNER/REPO/raw/PATH (or Accept:
    application/vnd.forge.raw), which streams any size in constant memory
  - no repository lock is held while a client is slow: answers are made
    into a spool (memory, then a temporary file past 1 MiB) and sent after

Rules (refserver/README.md has them all):
  - tokens do not expire; a change of password or of two-factor state ends
    every session of the account but the one that made it (its other
    tokens, on the REST API and git, and the registry's tokens issued
    before); disabling or deleting an account ends all of them
  - an invite's temporary password logs in once: the first login spends it
  - ref names: what git check-ref-format refuses, and names holding
    invisible characters (U+202E and the other bidirectional controls),
    are refused; a push does not delete the default branch
  - a push moves a ref only when everything its new value reaches is in
    the repository (git's connectivity check: else "missing necessary
    objects"), a check of at most 1,048,576 objects a ref (else that ref
    is refused: push its history in parts)

The server is meant for tests and demos on this machine: an --addr other
than loopback (127.0.0.1, ::1, localhost) is refused unless --listen-any
is given. Behind a proxy or on another host name, give --public-url: every
URL in answers (Link, clone_url, html_url, the registry's token realm) and
the printed settings use it, never the Host header a client sent. On every
interface (--listen-any --addr 0.0.0.0:8080) without it they name
127.0.0.1, which serves this machine only.

refserver/README.md documents every endpoint, with curl examples.`,
		Example: helptext.Serve.Example,
		Args:    cmdcore.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Memory && opts.DataDir != "" {
				return cmdcore.UsageErrorf("--memory keeps no state and --data keeps it in DIR: pass one of them")
			}
			opts.defaultData = !opts.Memory && opts.DataDir == ""
			return runF(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Addr, "addr", "127.0.0.1:8080", "Listen `address` (port 0 picks a free port)")
	fl.BoolVar(&opts.ListenAny, "listen-any", false, "Allow --addr on an address other than loopback, which other machines may reach")
	cmdcore.PathFlag(cmd, &opts.DataDir, "data", "", "", "Keep all state in `DIR` across restarts (default: $XDG_DATA_HOME/forge/serve, else ~/.local/share/forge/serve)")
	fl.BoolVar(&opts.Memory, "memory", false, "Keep all state in memory, gone at exit (throwaway servers, tests)")
	fl.StringVar(&opts.AdminUser, "admin-user", "admin", "Login `name` of the site_admin account")
	fl.StringVar(&opts.AdminPassword, "admin-password", "", "`Password` of the site_admin account, at least 12 characters (default: generated)")
	fl.BoolVar(&opts.Demo, "demo", false, "Seed an empty server with demo users, repositories, issues, pull requests, releases and CI runs")
	cmdcore.PathFlag(cmd, &opts.EnvFile, "env-file", "", "", "Also write the settings to `FILE` (mode 0600)")
	fl.DurationVar(&opts.CITick, "ci-tick", time.Second, "How long a CI run takes per log line (`duration`)")
	fl.StringVar(&opts.AgentKey, "agent-key", "", "Agent API `key` to accept, starting agk_ (default: generated, and kept in --data)")
	fl.Float64Var(&opts.RateLimit, "rate-limit", 0, "Allow each token `N` requests per second, answering 429 with Retry-After past it (0: no limit)")
	fl.StringVar(&opts.PublicURL, "public-url", "", "`URL` clients reach the server at, as https://forge.example.com behind a proxy; every URL in answers and the printed settings use it, never a request's Host (default: http://ADDR)")
	fl.IntVar(&opts.MaxConns, "max-conns", refserver.DefaultMaxConns, "At most `N` connections open at once (-1: no bound)")
	fl.IntVar(&opts.MaxPerAddr, "max-conns-per-addr", refserver.DefaultMaxConnsPerAddr, "At most `N` connections open at once from one client IP address (-1: no bound)")
	fl.DurationVar(&opts.RequestTO, "request-timeout", refserver.DefaultRequestTimeout, "How long a request's body may take to arrive (408 past it); its answer gets twice that")
	fl.DurationVar(&opts.TransferTO, "transfer-timeout", refserver.DefaultTransferTimeout, "The same for transfers: git, the registry, raw files, agent streams")
	fl.Int64Var(&opts.PushSpoolMiB, "max-push-spool", refserver.DefaultMaxPushSpool>>20, "At most `MiB` of git pushes being received at once, all together (503 past it)")
	fl.DurationVar(&opts.AgentDelay, "agent-delay", 20*time.Millisecond, "Pause before each chunk of a streamed agent reply (`duration`; 0: full speed)")
	fl.BoolVar(&opts.UntilStdinEOF, "until-stdin-eof", false, "Stop, as Ctrl-C does, when stdin ends (forge demo's lifeline)")
	_ = fl.MarkHidden("until-stdin-eof")
	return cmd
}

func (o *Options) validate() error {
	if o.AdminPassword != "" && len([]rune(o.AdminPassword)) < 12 {
		return cmdcore.UsageErrorf("--admin-password must be at least 12 characters")
	}
	if o.CITick <= 0 {
		return cmdcore.UsageErrorf("--ci-tick must be positive, as in --ci-tick 1s")
	}
	if o.AgentKey != "" {
		if err := agent.CheckKey(o.AgentKey); err != nil {
			return cmdcore.UsageErrorf("--agent-key: %v", err)
		}
	}
	for _, n := range []struct {
		flag string
		v    int
	}{{"--max-conns", o.MaxConns}, {"--max-conns-per-addr", o.MaxPerAddr}} {
		if n.v < -1 {
			return cmdcore.UsageErrorf("%s must be positive (or -1 for no bound), as in %s 256", n.flag, n.flag)
		}
	}
	for _, d := range []struct {
		flag string
		v    time.Duration
	}{{"--request-timeout", o.RequestTO}, {"--transfer-timeout", o.TransferTO}} {
		if d.v < 0 {
			return cmdcore.UsageErrorf("%s must be positive, as in %s 30s", d.flag, d.flag)
		}
	}
	if o.PushSpoolMiB < 0 {
		return cmdcore.UsageErrorf("--max-push-spool must be positive, as in --max-push-spool 4096 (MiB)")
	}
	if o.RateLimit < 0 {
		return cmdcore.UsageErrorf("--rate-limit must not be negative, as in --rate-limit 10 (0: no limit)")
	}
	if o.AgentDelay < 0 {
		return cmdcore.UsageErrorf("--agent-delay must not be negative, as in --agent-delay 20ms")
	}
	if o.PublicURL != "" {
		u, err := refserver.CheckPublicURL(o.PublicURL)
		if err != nil {
			return cmdcore.UsageErrorf("--public-url: %v", err)
		}
		o.PublicURL = u
	}
	host, _, err := net.SplitHostPort(o.Addr)
	if err != nil {
		return cmdcore.UsageErrorf("--addr %q: want HOST:PORT, as in 127.0.0.1:8080", o.Addr)
	}
	if !origin.IsLoopback(host) {
		if !o.ListenAny {
			return cmdcore.UsageErrorf("--addr %s is not a loopback address: other machines could reach the reference server, which is meant for tests and demos on this one; use 127.0.0.1:PORT, or pass --listen-any", o.Addr)
		}
		o.IO.ErrPrintf("forge: listening on %s, which other machines may reach (--listen-any)\n", o.Addr)
	}
	return nil
}

// unspecified reports whether host (of HOST:PORT) is every interface:
// "", 0.0.0.0 or ::. A client cannot reach the server at that address
// from another machine, so URLs built from it need --public-url there.
func unspecified(host string) bool {
	ip := net.ParseIP(host)
	return host == "" || ip != nil && ip.IsUnspecified()
}

// DefaultDataDir is where `forge serve` keeps its state without --data
// or --memory: $XDG_DATA_HOME/forge/serve, else
// ~/.local/share/forge/serve (the XDG base directories).
func DefaultDataDir(getenv func(string) string) (string, error) {
	if d := getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "forge", "serve"), nil
	}
	home := getenv("HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return "", cmdcore.UsageErrorf("no directory to keep the server's state in (HOME is not set): pass --data DIR, or --memory")
		}
	}
	return filepath.Join(home, ".local", "share", "forge", "serve"), nil
}

func runServe(ctx context.Context, o *Options) error {
	if err := o.validate(); err != nil {
		return err
	}
	if o.UntilStdinEOF {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		go func() {
			_, _ = io.Copy(io.Discard, o.IO.In)
			cancel()
		}()
	}
	if o.defaultData {
		dir, err := DefaultDataDir(o.Getenv)
		if err != nil {
			return err
		}
		o.DataDir = dir
	}
	if o.DataDir != "" {
		abs, err := filepath.Abs(o.DataDir)
		if err != nil {
			return err
		}
		o.DataDir = abs
		unlock, err := store.LockDir(abs)
		if err != nil {
			return fmt.Errorf("--data: %w; stop the other forge serve, or pass another --data DIR (or --memory)", err)
		}
		defer unlock()
	}
	srv, err := refserver.New(refserver.Options{Addr: o.Addr, DataDir: o.DataDir, AdminUser: o.AdminUser,
		AdminPassword: o.AdminPassword, Demo: o.Demo, CITick: o.CITick, AgentKey: o.AgentKey, AgentDelay: o.AgentDelay,
		RateLimit: o.RateLimit, PublicURL: o.PublicURL, Log: o.IO.ErrOut,
		MaxConns: o.MaxConns, MaxConnsPerAddr: o.MaxPerAddr, RequestTimeout: o.RequestTO, TransferTimeout: o.TransferTO,
		MaxPushSpool: o.PushSpoolMiB << 20, ExplainRestarts: true})
	if err != nil {
		return err
	}
	if err := srv.Start(); err != nil {
		srv.Close()
		if errors.Is(err, syscall.EADDRINUSE) {
			return fmt.Errorf("%w; stop what uses it or pass another --addr (port 0 picks a free one)", err)
		}
		return err
	}
	lines := envLines(srv.Env())
	if o.EnvFile != "" {
		if err := writeEnvFile(o.EnvFile, lines); err != nil {
			srv.Close()
			return fmt.Errorf("writing --env-file: %w", err)
		}
	}
	admin, err := o.adminLogin(srv)
	if err != nil {
		srv.Close()
		return err
	}
	o.IO.Print(iostreams.Lines(lines))
	o.IO.ErrPrintf("forge: serving %s (REST API at %s); Ctrl-C stops\n", srv.URL(), srv.BaseURL())
	if srv.PublicURL() != srv.URL() {
		o.IO.ErrPrintf("forge: public URL %s\n", srv.PublicURL())
	} else if host, _, _ := net.SplitHostPort(o.Addr); unspecified(host) {
		o.IO.ErrPrintf("forge: the settings and the URLs in answers name %s, which only this machine reaches; for other machines pass --public-url http://HOST:PORT naming this one\n", srv.URL())
	}
	o.IO.ErrPrintln(admin)
	if o.DataDir != "" {
		o.IO.ErrPrintf("forge: state kept in %s across restarts (--memory keeps none)\n", o.DataDir)
	} else {
		o.IO.ErrPrintln("forge: state kept in memory only: tokens, accounts and repositories are gone at exit (without --memory they are kept)")
	}
	if o.Demo {
		users := make([]string, len(refserver.DemoUsers))
		for i, u := range refserver.DemoUsers {
			users[i] = u[0] + " (" + u[1] + ")"
		}
		o.IO.ErrPrintf("forge: demo accounts %s; password %s\n", strings.Join(users, ", "), refserver.DemoPassword)
	}
	if o.ready != nil {
		o.ready(srv)
	}
	<-ctx.Done()
	o.IO.ErrPrintln("forge: stopping")
	if err := srv.Close(); err != nil {
		return err
	}
	o.IO.ErrPrintln("forge: stopped")
	return nil
}

// adminLogin returns the line telling the site_admin's login, and with
// --data keeps it in DIR/admin.env (mode 0600), apart from the settings
// every user sources.
func (o *Options) adminLogin(srv *refserver.Server) (string, error) {
	user, pw := srv.AdminUser(), srv.AdminPassword()
	if pw == "" {
		return fmt.Sprintf("forge: the password of %s was changed since it was generated; pass --admin-password to reset it", user), nil
	}
	msg := fmt.Sprintf("forge: site_admin %s, password %s", user, pw)
	if o.DataDir != "" {
		path := filepath.Join(o.DataDir, "admin.env")
		if err := writeEnvFile(path, envLines([][2]string{{"FORGE_USERNAME", user}, {"FORGE_PASSWORD", pw}})); err != nil {
			return "", fmt.Errorf("writing the admin's login: %w", err)
		}
		msg += " (kept in " + path + ")"
	}
	return msg, nil
}

// envLines renders NAME=value lines a POSIX shell can source, quoting
// values that need it.
func envLines(env [][2]string) string {
	var b strings.Builder
	for _, kv := range env {
		fmt.Fprintf(&b, "%s=%s\n", kv[0], text.ShellQuote(kv[1]))
	}
	return b.String()
}

// writeEnvFile writes the lines atomically with mode 0600: they hold the
// agent key (or, in admin.env, the admin's password).
func writeEnvFile(path, lines string) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.WriteString(lines); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
