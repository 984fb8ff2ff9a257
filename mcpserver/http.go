package mcpserver

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The bounds of --http: a client that connects and sends nothing, or
// opens session after session, or sends a batch of thousands of calls,
// must not starve the one with the token.
const (
	// MaxConns is how many connections are served at once; more wait to
	// be accepted.
	MaxConns = 64
	// MaxSessions is how many MCP sessions live at once; a new one past
	// it is refused (503) until one ends or times out.
	MaxSessions = 16
	// MaxBatch is the most messages one JSON-RPC batch may hold.
	MaxBatch = 32
	// MaxBody bounds a request's body.
	MaxBody = 1 << 20
	// SessionIdle ends a session that sent nothing for so long.
	SessionIdle = 30 * time.Minute
)

// Time bounds of --http (variables for the tests): a connection that
// sends no request header in headerTimeout, or stays idle between
// requests for idleTimeout, is closed.
var (
	headerTimeout = 10 * time.Second
	idleTimeout   = 2 * time.Minute
)

// httpServer is the server of --http: the streamable HTTP transport at
// /mcp, behind the bearer token, the Origin check and the bounds.
func httpServer(ms *mcp.Server, token string) *http.Server {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return ms },
		&mcp.StreamableHTTPOptions{SessionTimeout: SessionIdle, MaxRequestBodyBytes: MaxBody})
	var guarded http.Handler = unescapeResponses(h)
	guarded = bounded(ms, guarded)
	guarded = http.NewCrossOriginProtection().Handler(guarded)
	guarded = sameOrigin(guarded)
	mux := http.NewServeMux()
	mux.Handle("/mcp", bearer(token, guarded))
	return &http.Server{Handler: mux, ReadHeaderTimeout: headerTimeout, IdleTimeout: idleTimeout, MaxHeaderBytes: 64 << 10}
}

// bearer refuses requests without the token (compared in constant time;
// the scheme in any case, as HTTP's schemes are).
func bearer(token string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme, got, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		if !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(token)) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="forge mcp"`)
			http.Error(w, "forge mcp: a bearer token is required (printed by forge mcp serve at start-up)", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// sameOrigin refuses a request whose Origin is another site's, whatever
// its method (the MCP spec asks servers to check Origin on every
// connection: a web page the user visits must not reach the server).
// CrossOriginProtection adds the browsers' Sec-Fetch-Site for the
// requests that change something.
func sameOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" {
			u, err := url.Parse(o)
			if err != nil || !strings.EqualFold(u.Host, r.Host) {
				http.Error(w, "forge mcp: requests from another origin ("+o+") are refused", http.StatusForbidden)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// bounded refuses a new session past MaxSessions and a batch past
// MaxBatch messages.
func bounded(ms *mcp.Server, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
		if err != nil {
			http.Error(w, "forge mcp: the request is over 1 MiB", http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if t := bytes.TrimSpace(body); len(t) > 0 && t[0] == '[' {
			var batch []json.RawMessage
			if json.Unmarshal(t, &batch) == nil && len(batch) > MaxBatch {
				http.Error(w, "forge mcp: a batch holds at most 32 messages", http.StatusBadRequest)
				return
			}
		}
		if r.Header.Get("Mcp-Session-Id") == "" && sessions(ms) >= MaxSessions {
			w.Header().Set("Retry-After", "60")
			http.Error(w, "forge mcp: too many sessions open; end one (or wait for an idle one to time out)", http.StatusServiceUnavailable)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func sessions(ms *mcp.Server) int {
	n := 0
	for range ms.Sessions() {
		n++
	}
	return n
}
