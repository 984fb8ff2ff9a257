package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
	"github.com/rogpeppe/go-internal/testscript"
)

// srv2Key finds the script's second server in env.Values.
type srv2Key struct{}

// second is a script's second reference server, started on demand, with
// a log of the requests it received: what a user's other server (or a
// server they do not control) sees of forge.
type second struct {
	srv *refserver.Server
	mu  sync.Mutex
	log []string
}

// srv2Cmd drives the second server:
//
//	srv2 start [-beyond-spec STATUS]
//	                  start it; exports SERVER2_URL, SERVER2_BASE_URL,
//	                  SERVER2_HOST (host:port)
//	                  and SERVER2_AGENT_KEY; -beyond-spec 404 or 405 makes
//	                  the reference server's endpoints that the spec does
//	                  not list answer that status, as a server implementing
//	                  only the spec would; -next-link-only keeps only
//	                  rel="next" of its Link headers (no "last" to count by)
//	srv2 log          print its request log, a line per request:
//	                  METHOD PATH AUTH STATUS, AUTH the Authorization
//	                  scheme ("token", "Bearer", "Basic") or "none" — never
//	                  the secret; a credential B does not know gets 401
//	srv2 SUB ...      a srv subcommand (srv_test.go) on the second server
func srv2Cmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: srv2 start|log|SUBCOMMAND ...")
	}
	b := ts.Value(srv2Key{}).(*second)
	switch args[0] {
	case "start":
		fs := flag.NewFlagSet("srv2 start", flag.ContinueOnError)
		refuse := fs.Int("beyond-spec", 0, "")
		nextOnly := fs.Bool("next-link-only", false, "")
		ts.Check(fs.Parse(args[1:]))
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		ts.Check(err)
		// Served through Handler, not Start: the server learns its
		// address from PublicURL.
		srv := refservertest.New(scriptTB{ts.Defer, func(a ...any) { ts.Fatalf("%s", fmt.Sprint(a...)) }},
			refservertest.CITick(50*time.Millisecond), func(o *refserver.Options) {
				o.AdminPassword = "admin-password-5678"
				o.PublicURL = "http://" + ln.Addr().String()
			})
		h := srv.Handler()
		if *refuse != 0 {
			h = specOnly(h, *refuse)
		}
		if *nextOnly {
			h = nextLinkOnly(h)
		}
		hs := &http.Server{Handler: b.record(h), ReadHeaderTimeout: 10 * time.Second}
		go hs.Serve(ln)
		ts.Defer(func() { hs.Close() }) // before srv's Close, deferred by New
		b.srv = srv
		url := "http://" + ln.Addr().String()
		ts.Setenv("SERVER2_URL", url)
		ts.Setenv("SERVER2_BASE_URL", url+"/api/v2")
		ts.Setenv("SERVER2_AGENT_KEY", srv.AgentKey())
		ts.Setenv("SERVER2_HOST", ln.Addr().String())
	case "log":
		b.mu.Lock()
		defer b.mu.Unlock()
		for _, l := range b.log {
			fmt.Fprintln(ts.Stdout(), l)
		}
	default:
		if b.srv == nil {
			ts.Fatalf("srv2: run `srv2 start` first")
		}
		seed(ts, b.srv, args)
	}
}

// specOnly answers status for the endpoints of the reference server that
// the specification does not list, as a plain mux would, and passes the
// rest to h.
func specOnly(h http.Handler, status int) http.Handler {
	mux := http.NewServeMux()
	refuse := func(w http.ResponseWriter, r *http.Request) {
		if status == http.StatusMethodNotAllowed {
			w.Header().Set("Allow", "GET")
		}
		http.Error(w, http.StatusText(status), status)
	}
	for _, p := range []string{
		"POST /api/v2/repos/{owner}/{repo}/actions/runs/{id}/cancel",
		"POST /api/v2/repos/{owner}/{repo}/actions/runs/{id}/rerun",
		"DELETE /api/v2/repos/{owner}/{repo}/collaborators/{user}",
		"PATCH /api/v2/repos/{owner}/{repo}/issues/{number}",
		"POST /api/v2/auth/logout",
	} {
		mux.HandleFunc(p, refuse)
	}
	mux.Handle("/", h)
	return mux
}

// nextLinkOnly drops every link but rel="next" from h's Link headers.
func nextLinkOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&linkFilter{ResponseWriter: w}, r)
	})
}

type linkFilter struct {
	http.ResponseWriter
	wrote bool
}

func (w *linkFilter) WriteHeader(code int) {
	w.wrote = true
	var keep []string
	for _, l := range strings.Split(w.Header().Get("Link"), ", ") {
		if strings.HasSuffix(l, `rel="next"`) {
			keep = append(keep, l)
		}
	}
	w.Header().Del("Link")
	if len(keep) > 0 {
		w.Header().Set("Link", strings.Join(keep, ", "))
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *linkFilter) Write(b []byte) (int, error) {
	if !w.wrote { // an implicit 200 goes through the filter too
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

func (b *second) record(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth := "none"
		if a := r.Header.Get("Authorization"); a != "" {
			auth, _, _ = strings.Cut(a, " ")
		}
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(sw, r)
		b.mu.Lock()
		b.log = append(b.log, fmt.Sprintf("%s %s %s %d", r.Method, r.URL.Path, auth, sw.status))
		b.mu.Unlock()
	})
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

// Flush passes streaming (the agent's SSE replies) through.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
