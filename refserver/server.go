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
package refserver

import (
	"context"
	"errors"
	"net"
	"net/http"
	"path/filepath"
	"time"

	"github.com/forgehq/forge/refserver/agent"
	"github.com/forgehq/forge/refserver/registry"
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
	// AgentKey is the agent API key to create; empty generates one.
	AgentKey string
}

// Server is a running reference server.
type Server struct {
	opts     Options
	mux      *http.ServeMux
	listener net.Listener
	http     *http.Server
	url      string
	agent    *agent.Service
	agentKey string
	registry *registry.Registry
}

// New builds a server without listening yet.
func New(opts Options) (*Server, error) {
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	s := &Server{opts: opts, mux: http.NewServeMux()}
	if err := s.newAgent(); err != nil {
		return nil, err
	}
	s.routes()
	if err := s.mountRegistry(); err != nil {
		return nil, err
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
	reg, err := registry.New(registry.Options{BaseURL: s.BaseURL, DataDir: dir})
	if err != nil {
		return err
	}
	reg.Mount(s.mux)
	s.registry = reg
	return nil
}

// Registry is the container registry, for sharing images from Go and for
// its token service's certificate.
func (s *Server) Registry() *registry.Registry { return s.registry }

// routes mounts the three interfaces. Each part registers its own paths.
func (s *Server) routes() {
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"error":"not found"}` + "\n"))
	})
	s.mux.Handle("/api/v1/", s.agent)
}

// newAgent builds the agent API with one key: Options.AgentKey, or a new
// one, of the "pro" tier.
func (s *Server) newAgent() error {
	s.agent = agent.New()
	if s.opts.AgentKey == "" {
		key, err := s.agent.CreateKey("pro")
		s.agentKey = key
		return err
	}
	s.agentKey = s.opts.AgentKey
	return s.agent.AddKey(s.opts.AgentKey, "pro")
}

// Agent is the agent API, for setting quotas, tiers, the chunk delay and
// models.
func (s *Server) Agent() *agent.Service { return s.agent }

// AgentKey is the agent API key the server was made with.
func (s *Server) AgentKey() string { return s.agentKey }

// AgentURL is the agent API's address, {URL} (its paths start /api/v1).
func (s *Server) AgentURL() string { return s.url }

// Handler is the server's whole HTTP handler, for embedding.
func (s *Server) Handler() http.Handler { return s.mux }

// Start listens on the configured address and serves in the background.
func (s *Server) Start() error {
	ln, err := net.Listen("tcp", s.opts.Addr)
	if err != nil {
		return err
	}
	s.listener = ln
	s.url = "http://" + ln.Addr().String()
	s.http = &http.Server{Handler: s.mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := s.http.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			panic(err)
		}
	}()
	return nil
}

// URL is the server's origin, http://127.0.0.1:PORT.
func (s *Server) URL() string { return s.url }

// BaseURL is the REST API's base URL, {URL}/api/v2.
func (s *Server) BaseURL() string { return s.url + "/api/v2" }

// Close stops the server, waiting up to five seconds for requests in
// flight.
func (s *Server) Close() error {
	if s.http == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return s.http.Shutdown(ctx)
}
