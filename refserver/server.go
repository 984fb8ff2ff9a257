// Package refserver is forge's reference implementation of the hosting
// service: the REST API v2, the agent chat API v1 and the container
// registry, served from one listener on loopback. Tests start it
// in-process; `forge serve` and `forge demo` run it for people.
//
// It imports none of forge's client packages (client, chat, regclient,
// cmd, tui): it is an independent implementation of the specification, so
// a bug cannot hide in a type shared with the client. refserver/README.md
// lists every choice made where the specification says "not shown".
//
// Routes on the one listener:
//
//	/api/v2/...                         REST API (base_url = {URL}/api/v2)
//	/api/v1/...                         agent chat API (agent_url = {URL})
//	/v2/..., /token                     registry protocol and its token service
//	/api/catalog, /api/tags/...         registry listing endpoints
//
// The package is split by concern: store (state and persistence), gitstore
// (the repositories' git data), ci (how workflow runs progress), rest (the
// REST handlers and permission rules), ratelimit (the optional throttle). This file wires them; seed.go has
// the Go methods tests use to create data, demo.go the --demo world.
package refserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/forgehq/forge/refserver/agent"
	"github.com/forgehq/forge/refserver/connlimit"
	"github.com/forgehq/forge/refserver/gitstore"
	"github.com/forgehq/forge/refserver/ratelimit"
	"github.com/forgehq/forge/refserver/registry"
	"github.com/forgehq/forge/refserver/rest"
	"github.com/forgehq/forge/refserver/store"
)

// Options configure a Server. The zero value is an in-memory server on a
// random loopback port.
type Options struct {
	// Addr is the listen address; default "127.0.0.1:0" (a free port).
	Addr string
	// DataDir keeps all state across restarts; empty keeps it in memory.
	DataDir string
	// AdminUser and AdminPassword name the first site_admin account;
	// defaults "admin" and a generated password (see Server.AdminPassword).
	AdminUser     string
	AdminPassword string
	// Demo seeds a small realistic world of users, repos, issues, pull
	// requests, releases and CI runs.
	Demo bool
	// AgentKey is the agent API key to create; empty generates one (kept
	// in DataDir's agent-key, so later starts keep it).
	AgentKey string
	// AgentDelay is the agent stream's pause before each chunk; zero
	// streams at full speed.
	AgentDelay time.Duration

	// CITick is how long a workflow run takes per log line (one tick per
	// line of each step, see package ci); default one second. Tests make
	// it short to watch runs complete quickly.
	CITick time.Duration
	// Now is the server's clock; nil is time.Now. Tests move it to
	// drive runs, TOTP steps and lockouts. Request handlers and the CI
	// runner call it from several goroutines at once: it must be safe for
	// concurrent use.
	Now func() time.Time
	// PasswordCost is the bcrypt cost of stored passwords (default 6:
	// this is a test and demo server, and logins should be quick).
	PasswordCost int
	// RateLimit allows each token this many requests per second (in
	// bursts of as many), answering 429 with Retry-After past it; 0 is
	// no limit (see package ratelimit).
	RateLimit float64
	// MaxConns bounds the connections held open at once (default 4096,
	// lowered to the open-files limit less 128 when that is smaller),
	// MaxConnsPerAddr those from one client IP address (default 256): a
	// connection past either is answered 503 and closed at once. -1 is
	// no bound (MaxConns: only the open-files limit's).
	MaxConns, MaxConnsPerAddr int
	// RequestTimeout bounds the time an API request's body may take to
	// arrive after its headers (default 30 s; past it the answer is 408),
	// and twice that the time until its answer is sent; TransferTimeout
	// does the same for transfers — git's smart HTTP, the registry's /v2/,
	// raw file downloads and agent streams — (default 10 min). A request's
	// headers must arrive within 10 s (HeaderTimeout). -1 is no bound.
	RequestTimeout, TransferTimeout time.Duration
	// PublicURL is the origin clients reach the server at
	// (scheme://host[:port], as behind a proxy): every URL in an answer
	// (Link, clone_url, html_url, the registry's token realm) and the
	// printed settings are built from it, never from a request's Host
	// header. Default: the listen address, http://ADDR. A server served
	// through Handler, without Start, has no other address than this.
	PublicURL string
	// ExplainRestarts, for a server without DataDir that people use
	// (forge serve --memory), makes the answer to a token or agent key the
	// server does not know say that it keeps its state in memory and when
	// it started: a client holding one of an earlier run learns why it is
	// refused (tests' servers leave it off).
	ExplainRestarts bool
	// MaxPushSpool bounds the bytes of the git pushes being received at
	// once, together, as they are spooled (inflated) before their
	// repository is locked; default DefaultMaxPushSpool (4 GiB). A push
	// that would go past it is answered 503 with Retry-After. One push is
	// at most 2 GiB, a gzip-encoded one at most 10 times its size plus
	// 1 MiB once inflated (413 past either).
	MaxPushSpool int64
	// Log receives the server's few messages (what was dropped from a
	// torn journal); nil is standard error.
	Log io.Writer
}

// Server is a running reference server.
type Server struct {
	opts     Options
	mux      *http.ServeMux
	handler  http.Handler // mux, throttled with RateLimit
	listener net.Listener
	conns    *connlimit.Listener
	http     *http.Server
	url      string

	agent    *agent.Service
	agentKey string
	registry *registry.Registry

	st            *store.Store
	git           *gitstore.Store
	api           *rest.API
	adminPassword string
	// ago shifts the store's clock into the past while the demo is
	// seeded, so its records carry realistic dates.
	ago atomic.Int64

	newMu      sync.Mutex
	newConns   map[net.Conn]bool
	closing    bool // Close has begun: new connections are closed at once
	droppedNew int  // connections closed for never sending a request
}

// now is the clock records are stamped with.
func (s *Server) now() time.Time { return s.opts.Now().Add(-time.Duration(s.ago.Load())) }

// The defaults of the connection bounds and deadlines (see Options).
const (
	DefaultMaxConns        = 4096
	DefaultMaxConnsPerAddr = 256
	DefaultRequestTimeout  = 30 * time.Second
	DefaultTransferTimeout = 10 * time.Minute
	DefaultMaxPushSpool    = rest.DefaultPushSpool
	// HeaderTimeout bounds the arrival of a request's headers.
	HeaderTimeout = 10 * time.Second
)

func orDefault[T int | time.Duration](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}

// New builds a server without listening yet: it opens (or creates) the
// state, makes sure the admin account exists and, with Demo, seeds the
// demo world into an empty server.
func New(opts Options) (*Server, error) {
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	if opts.AdminUser == "" {
		opts.AdminUser = "admin"
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.CITick <= 0 {
		opts.CITick = time.Second
	}
	if opts.PasswordCost == 0 {
		opts.PasswordCost = 6
	}
	if opts.Log == nil {
		opts.Log = os.Stderr
	}
	opts.MaxConns = orDefault(opts.MaxConns, DefaultMaxConns)
	opts.MaxConnsPerAddr = orDefault(opts.MaxConnsPerAddr, DefaultMaxConnsPerAddr)
	opts.RequestTimeout = orDefault(opts.RequestTimeout, DefaultRequestTimeout)
	opts.TransferTimeout = orDefault(opts.TransferTimeout, DefaultTransferTimeout)
	if opts.PublicURL != "" {
		u, err := CheckPublicURL(opts.PublicURL)
		if err != nil {
			return nil, err
		}
		opts.PublicURL = u
	}
	if why := store.ValidLogin(opts.AdminUser); why != "" {
		return nil, fmt.Errorf("admin user %q: %s", opts.AdminUser, why)
	}
	gitDir := ""
	if opts.DataDir != "" {
		gitDir = filepath.Join(opts.DataDir, "git")
	}
	s := &Server{opts: opts, mux: http.NewServeMux(), git: gitstore.New(gitDir)}
	st, err := store.Open(opts.DataDir, s.now)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", opts.DataDir, err)
	}
	s.st = st
	if msg := st.Dropped(); msg != "" {
		fmt.Fprintln(opts.Log, "forge: warning: "+msg)
	}
	s.api = rest.New(rest.Config{Store: st, Git: s.git, Now: opts.Now, PasswordCost: opts.PasswordCost, CITick: opts.CITick,
		PublicURL: s.PublicURL, PushSpool: opts.MaxPushSpool, UnknownToken: s.inMemoryHint("tokens, accounts and repositories", ""),
		OnUserDeleted: func(login string) error { return s.registry.DeleteNamespace(login) }})
	fresh := len(st.Users(nil)) == 0
	if err := s.ensureAdmin(); err != nil {
		st.Close()
		return nil, err
	}
	if opts.Demo && fresh {
		if err := s.seedDemo(); err != nil {
			st.Close()
			return nil, fmt.Errorf("seeding the demo: %w", err)
		}
	}
	if err := s.newAgent(); err != nil {
		st.Close()
		return nil, err
	}
	s.routes()
	if err := s.mountRegistry(); err != nil {
		st.Close()
		return nil, err
	}
	s.handler = s.mux
	if opts.RateLimit > 0 {
		s.handler = ratelimit.New(opts.RateLimit, opts.Now).Handler(s.mux)
	}
	return s, nil
}

// mountRegistry serves the container registry, whose token service checks
// credentials through this server's own REST login, over HTTP.
func (s *Server) mountRegistry() error {
	dir := ""
	if s.opts.DataDir != "" {
		dir = filepath.Join(s.opts.DataDir, "registry")
	}
	reg, err := registry.New(registry.Options{BaseURL: s.BaseURL, PublicURL: s.PublicURL, DataDir: dir, UserState: s.userState, AccountID: s.accountID})
	if err != nil {
		return err
	}
	reg.Mount(s.mux)
	s.registry = reg
	return nil
}

// userState is what the registry checks on every request, so that a
// disabled or deleted account loses registry access at once.
func (s *Server) userState(login string) registry.UserState {
	u, ok := s.st.UserByLogin(login)
	switch {
	case !ok:
		return registry.UserMissing
	case u.Disabled:
		return registry.UserDisabled
	}
	return registry.UserActive
}

// accountID is the id of the account holding login and of its sessions,
// "ID.N" (N: store.User.Sessions), "" when none: the registry binds
// tokens and cached credentials to it, so they end with the account and
// with its sessions (a change of password or of two-factor state).
func (s *Server) accountID(login string) string {
	if u, ok := s.st.UserByLogin(login); ok {
		return strconv.FormatInt(u.ID, 10) + "." + strconv.FormatInt(u.Sessions, 10)
	}
	return ""
}

// Registry is the container registry, for sharing images from Go and for
// its token service's certificate.
func (s *Server) Registry() *registry.Registry { return s.registry }

// PushesHeld is the bytes the git pushes being received hold now in their
// spools, out of Options.MaxPushSpool: a test waits on it to know a push's
// bytes are in.
func (s *Server) PushesHeld() int64 { return s.api.PushesHeld() }

// ensureAdmin creates the site_admin account, or resets its password when
// one is given and differs. A generated password is kept in DataDir's
// admin-password file (mode 0600) so later starts can print it again.
func (s *Server) ensureAdmin() error {
	pw := s.opts.AdminPassword
	pwFile := ""
	if s.opts.DataDir != "" {
		pwFile = filepath.Join(s.opts.DataDir, "admin-password")
	}
	u, exists := s.st.UserByLogin(s.opts.AdminUser)
	if pw == "" && exists && pwFile != "" {
		if b, err := os.ReadFile(pwFile); err == nil && store.PasswordMatches(u.PasswordHash, strings.TrimSpace(string(b))) {
			s.adminPassword = strings.TrimSpace(string(b))
		}
		return nil
	}
	generated := pw == ""
	if generated {
		pw = store.RandomString(20, "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
	}
	s.adminPassword = pw
	if exists && store.PasswordMatches(u.PasswordHash, pw) {
		return nil
	}
	hash, err := store.HashPassword(pw, s.opts.PasswordCost)
	if err != nil {
		return err
	}
	if exists {
		if _, err := s.st.SetPassword(u.ID, hash, false); err != nil {
			return err
		}
	} else if _, err := s.st.CreateUser(store.NewUser{Login: s.opts.AdminUser, Email: s.opts.AdminUser + "@forge.local",
		FullName: "Site Administrator", Role: store.RoleSiteAdmin, PasswordHash: hash, Activated: true}); err != nil {
		return err
	}
	if generated && pwFile != "" {
		return store.WriteFileAtomic(pwFile, []byte(pw+"\n"), 0o600)
	}
	return nil
}

// routes mounts the three interfaces. Each part registers its own paths.
func (s *Server) routes() {
	s.mux.Handle(rest.Prefix+"/", s.api)
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		// Repositories are served over git's smart HTTP at their clone_url.
		if s.api.GitHTTP(w, r) {
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"error":"not found"}` + "\n"))
	})
	s.mux.Handle("/api/v1/", s.agent)
}

// inMemoryHint is what the answer to an unknown credential adds with
// ExplainRestarts: the server keeps its state in memory, and since when,
// so what is gone, then fix.
func (s *Server) inMemoryHint(what, fix string) string {
	if !s.opts.ExplainRestarts || s.opts.DataDir != "" {
		return ""
	}
	return fmt.Sprintf("this server keeps its state in memory (forge serve --memory) and started at %s: %s from before then are gone%s",
		s.opts.Now().UTC().Format(time.RFC3339), what, fix)
}

// newAgent builds the agent API with one key of the "pro" tier:
// Options.AgentKey, else the one generated by an earlier start with the
// same DataDir, else a new one (kept there). With a DataDir, the keys'
// usage is kept in agent-usage.json (see keepAgentUsage).
func (s *Server) newAgent() error {
	if err := s.addAgentKey(); err != nil {
		return err
	}
	return s.keepAgentUsage()
}

func (s *Server) addAgentKey() error {
	s.agent = agent.New()
	s.agent.SetChunkDelay(s.opts.AgentDelay)
	s.agent.SetUnknownKeyHint(s.inMemoryHint("agent keys", "; use the AGENT_API_KEY it printed at its start"))
	key, keyFile := s.opts.AgentKey, ""
	if s.opts.DataDir != "" {
		keyFile = filepath.Join(s.opts.DataDir, "agent-key")
	}
	if key == "" && keyFile != "" {
		if b, err := os.ReadFile(keyFile); err == nil && agent.CheckKey(strings.TrimSpace(string(b))) == nil {
			key = strings.TrimSpace(string(b))
		}
	}
	if key == "" {
		var err error
		if key, err = s.agent.CreateKey("pro"); err != nil {
			return err
		}
		s.agentKey = key
		if keyFile != "" {
			return store.WriteFileAtomic(keyFile, []byte(key+"\n"), 0o600)
		}
		return nil
	}
	s.agentKey = key
	return s.agent.AddKey(key, "pro")
}

// keepAgentUsage loads the usage an earlier start kept in DataDir's
// agent-usage.json and rewrites that file (atomically) after every request
// that changed it, so usage counts survive a restart. A request's usage is
// kept once it has been served: a crash in the middle of a stream forgets
// that stream's tokens.
func (s *Server) keepAgentUsage() error {
	if s.opts.DataDir == "" {
		return nil
	}
	path := filepath.Join(s.opts.DataDir, "agent-usage.json")
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return err
	default:
		if err := s.agent.LoadUsage(b); err != nil {
			return fmt.Errorf("%s: %w; remove it to start the usage counts from 0", path, err)
		}
	}
	var mu sync.Mutex
	s.agent.OnUsage(func() {
		mu.Lock()
		defer mu.Unlock()
		b, err := s.agent.SaveUsage()
		if err == nil {
			err = store.WriteFileAtomic(path, b, 0o600)
		}
		if err != nil {
			fmt.Fprintf(s.opts.Log, "forge: warning: keeping the agent usage: %v\n", err)
		}
	})
	return nil
}

// Agent is the agent API, for setting quotas, tiers, the chunk delay and
// models.
func (s *Server) Agent() *agent.Service { return s.agent }

// AgentKey is the agent API key the server was made with.
func (s *Server) AgentKey() string { return s.agentKey }

// AgentURL is the agent API's address, {URL} (its paths start /api/v1).
func (s *Server) AgentURL() string { return s.url }

// Handler is the server's whole HTTP handler, for embedding.
func (s *Server) Handler() http.Handler { return s.handler }

// Start listens on the configured address and serves in the background.
func (s *Server) Start() error {
	ln, err := net.Listen("tcp", s.opts.Addr)
	if err != nil {
		return err
	}
	s.url = "http://" + dialAddr(ln.Addr().(*net.TCPAddr))
	s.conns = connlimit.New(ln, connBound(s.opts.MaxConns, openFileLimit()), s.opts.MaxConnsPerAddr)
	s.listener = s.conns
	s.http = &http.Server{Handler: s.deadlines(s.handler), ReadHeaderTimeout: HeaderTimeout, IdleTimeout: 2 * time.Minute,
		ConnState: s.trackNew}
	s.http.RegisterOnShutdown(s.closeNew)
	go func() {
		if err := s.http.Serve(s.listener); err != nil && !errors.Is(err, http.ErrServerClosed) {
			panic(err)
		}
	}()
	return nil
}

// dialAddr is where a client on this machine reaches a listener at addr:
// loopback in place of every interface (0.0.0.0, ::, which Go listens on
// for both), an address no client should dial — Windows refuses it, and
// forge's client takes it for another machine's and warns of plain http.
func dialAddr(addr *net.TCPAddr) string {
	ip := addr.IP
	if ip.IsUnspecified() {
		ip = net.IPv4(127, 0, 0, 1)
	}
	return net.JoinHostPort(ip.String(), strconv.Itoa(addr.Port))
}

// fdReserve is how many open files connBound keeps for the rest of the
// server (data files, git packs, spools, the registry's blobs).
const fdReserve = 128

// connBound is MaxConns, lowered to what the open-files limit allows once
// fdReserve files are kept aside: past that limit accept fails
// ("too many open files") and the server stops answering everyone.
func connBound(limit, fileLimit int) int {
	if fileLimit > 0 && (limit <= 0 || limit > fileLimit-fdReserve) {
		return max(fileLimit-fdReserve, 1)
	}
	return limit
}

// deadlines gives every request, from the moment its headers arrived, a
// deadline T to receive its body and 2T to have sent its answer (so the
// answer to a body cut at T, a 408, still goes out): T is RequestTimeout,
// or TransferTimeout for transfers. A client that sends or reads slowly
// holds its connection no longer than that.
func (s *Server) deadlines(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d := s.opts.RequestTimeout
		if isTransfer(r) {
			d = s.opts.TransferTimeout
		}
		if d > 0 {
			rc := http.NewResponseController(w)
			now := time.Now()
			rc.SetReadDeadline(now.Add(d))
			rc.SetWriteDeadline(now.Add(2 * d))
		}
		next.ServeHTTP(w, r)
	})
}

// isTransfer reports whether r may move a large amount of data: git's
// smart HTTP, the registry, raw file downloads, agent streams.
func isTransfer(r *http.Request) bool {
	p := r.URL.Path
	switch {
	case strings.HasPrefix(p, "/v2/"), p == "/v2", strings.HasSuffix(p, "/chat/stream"),
		strings.HasSuffix(p, "/info/refs"), strings.HasSuffix(p, "/git-upload-pack"), strings.HasSuffix(p, "/git-receive-pack"):
		return true
	}
	return strings.HasPrefix(p, rest.Prefix+"/repos/") && rest.IsRaw(r)
}

// Conns reports the connections held open and those refused so far for
// being past MaxConns or MaxConnsPerAddr.
func (s *Server) Conns() (open int, refused int64) {
	if s.conns == nil {
		return 0, 0
	}
	return s.conns.Open(), s.conns.Refused()
}

// URL is the server's origin, http://127.0.0.1:PORT (a loopback address
// also when it listens on every interface).
func (s *Server) URL() string { return s.url }

// BaseURL is the REST API's base URL, {URL}/api/v2.
func (s *Server) BaseURL() string { return s.url + "/api/v2" }

// PublicURL is the origin clients reach the server at: Options.PublicURL,
// else the listen address (URL).
func (s *Server) PublicURL() string {
	if s.opts.PublicURL != "" {
		return s.opts.PublicURL
	}
	return s.url
}

// CheckPublicURL checks a public URL (an http or https origin, no query
// or fragment) and returns it without a trailing slash.
func CheckPublicURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		u.RawQuery != "" || u.Fragment != "" || strings.Trim(u.Path, "/") != "" {
		return "", fmt.Errorf("public URL %q: want an origin such as https://forge.example.com or http://HOST:PORT", raw)
	}
	return u.Scheme + "://" + u.Host, nil
}

// AdminUser is the site_admin account's login.
func (s *Server) AdminUser() string { return s.opts.AdminUser }

// AdminPassword is the site_admin account's password: the one given in
// Options, or the generated one. It is "" only when a DataDir from an
// earlier run holds an admin whose password is neither given nor the one
// generated there (it was changed through the API).
func (s *Server) AdminPassword() string { return s.adminPassword }

// Env lists the settings every user of the server needs, in order, as
// NAME=value pairs for `forge serve` to print: the three addresses (at the
// public URL) and the agent key. The admin's login is not among them (see AdminUser and
// AdminPassword): whoever sources these must stay who they are.
func (s *Server) Env() [][2]string {
	return [][2]string{
		{"FORGE_BASE_URL", s.PublicURL() + rest.Prefix},
		{"AGENT_URL", s.PublicURL()},
		{"AGENT_API_KEY", s.agentKey},
		{"FORGE_REGISTRY_URL", s.PublicURL()},
	}
}

// Close stops the server, waiting up to five seconds for requests in
// flight, then closes the state.
func (s *Server) Close() error {
	var err error
	if s.http != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		// Shutdown runs closeNew in a goroutine and may wait on a
		// connection before it ran: run it first.
		s.closeNew()
		err = s.http.Shutdown(ctx)
	}
	return errors.Join(err, s.registry.Close(), s.st.Close())
}

// trackNew remembers connections that have not sent a request yet.
// Shutdown counts such a connection as busy until it is five seconds old,
// so a client that opened one and never used it would hold Close for five
// seconds; closeNew closes them instead. One accepted while or after
// closeNew runs is closed here, so none slips between the two.
func (s *Server) trackNew(c net.Conn, state http.ConnState) {
	s.newMu.Lock()
	defer s.newMu.Unlock()
	if state == http.StateNew {
		if s.closing {
			c.Close()
			s.droppedNew++
			return
		}
		if s.newConns == nil {
			s.newConns = map[net.Conn]bool{}
		}
		s.newConns[c] = true
		return
	}
	delete(s.newConns, c)
}

// closeNew closes the connections that never sent a request, and makes
// trackNew close any accepted later.
func (s *Server) closeNew() {
	s.newMu.Lock()
	defer s.newMu.Unlock()
	s.closing = true
	for c := range s.newConns {
		c.Close()
		s.droppedNew++
		delete(s.newConns, c)
	}
}
