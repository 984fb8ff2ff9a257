// Package rest serves the hosting service's REST API v2 under /api/v2 over
// a store.Store: accounts, two-factor authentication, SSH keys,
// administration, repositories with their git contents, issues,
// collaborators, pull requests, releases and CI runs. Permission rules —
// which the specification leaves open — live here, in policy.go, and are
// listed in refserver/README.md.
package rest

import (
	"net/http"
	"time"

	"github.com/forgehq/forge/refserver/gitstore"
	"github.com/forgehq/forge/refserver/store"
)

// Prefix is where the API is mounted.
const Prefix = "/api/v2"

// Config configures the API. Zero numbers take the documented defaults.
type Config struct {
	Store *store.Store
	Git   *gitstore.Store
	// Now is the clock (tests move it); nil is time.Now. Every request's
	// handler calls it, from several goroutines at once: it must be safe
	// for concurrent use.
	Now func() time.Time
	// PasswordCost is the bcrypt cost for new passwords (default 6).
	PasswordCost int
	// LockoutThreshold failed logins within LockoutWindow lock a login
	// name for LockoutDuration (defaults 5, 15 min, 15 min).
	LockoutThreshold int
	LockoutWindow    time.Duration
	LockoutDuration  time.Duration
	// CITick is how long a step of a new workflow run takes per log line
	// (default 1s).
	CITick time.Duration
	// OnPush, when set, is called after a push updated a repository, on
	// the push's request goroutine: pushes to different repositories call
	// it at once.
	OnPush func(repo store.Repo)
	// PublicURL returns the server's public origin (scheme://host:port),
	// from which every URL in a response is built; called from every
	// request's goroutine, at once.
	PublicURL func() string
	// OnUserDeleted, when set, is called when an account has been
	// deleted, before the request is answered (the registry deletes the
	// user's images and shares); on the request's goroutine, and two
	// deletions may call it at once.
	OnUserDeleted func(login string) error
	// PushSpool bounds the bytes of the pushes being received at once,
	// all together, as they are spooled before the repository is locked
	// (default DefaultPushSpool); a push that would go past it is
	// answered 503.
	PushSpool int64
	// UnknownToken, when set, follows "the token is unknown or was
	// revoked" in the answer to a token the server does not know, on the
	// REST API and over git: a server that keeps its state in memory says
	// so, and when it started, to a client holding a token of an earlier
	// run.
	UnknownToken string
}

// DefaultPushSpool is Config.PushSpool's default: two pushes of the
// largest size at once.
const DefaultPushSpool = 2 * maxPush

// API is the REST API handler.
type API struct {
	cfg Config
	st  *store.Store
	git *gitstore.Store
	mux *http.ServeMux
	// logins counts failed logins per login name, codes wrong 2FA
	// codes per account.
	logins, codes *lockout

	issueCache issueCache
	// pushes is what pushes being received hold (Config.PushSpool).
	pushes *gitstore.Budget
}

// PushesHeld is the bytes the pushes being received hold now in their
// spools, out of Config.PushSpool.
func (a *API) PushesHeld() int64 { return a.pushes.Used() }

// New returns the API's handler; it serves paths under Prefix.
func New(cfg Config) *API {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.PasswordCost == 0 {
		cfg.PasswordCost = 6
	}
	if cfg.LockoutThreshold == 0 {
		cfg.LockoutThreshold = 5
	}
	if cfg.LockoutWindow == 0 {
		cfg.LockoutWindow = 15 * time.Minute
	}
	if cfg.LockoutDuration == 0 {
		cfg.LockoutDuration = 15 * time.Minute
	}
	if cfg.CITick == 0 {
		cfg.CITick = time.Second
	}
	if cfg.PublicURL == nil {
		cfg.PublicURL = func() string { return "http://localhost" }
	}
	if cfg.PushSpool == 0 {
		cfg.PushSpool = DefaultPushSpool
	}
	a := &API{cfg: cfg, st: cfg.Store, git: cfg.Git, mux: http.NewServeMux(), pushes: gitstore.NewBudget(cfg.PushSpool),
		logins: newLockout(cfg.LockoutThreshold, cfg.LockoutWindow, cfg.LockoutDuration),
		codes:  newLockout(cfg.LockoutThreshold, cfg.LockoutWindow, cfg.LockoutDuration)}
	a.routes()
	return a
}

func (a *API) routes() {
	a.handleAnonymous("POST /auth/login", a.login)
	a.handlePending("POST /auth/logout", a.logout)

	a.handle("GET /me", a.getMe)
	a.handle("GET /me/state", a.getState)
	a.handle("PATCH /me/profile", a.patchProfile)
	a.handle("POST /me/password", a.changePassword)
	a.handle("POST /me/2fa/setup", a.twofaSetup)
	a.handle("POST /me/2fa/confirm", a.twofaConfirm)
	a.handlePending("POST /me/2fa/verify", a.twofaVerify)
	a.handle("POST /me/2fa/disable", a.twofaDisable)
	a.handle("GET /me/keys", a.listKeys)
	a.handle("POST /me/keys", a.addKey)
	a.handle("DELETE /me/keys/{id}", a.deleteKey)

	a.handle("GET /admin/invites", a.listInvites)
	a.handle("POST /admin/invites", a.createInvite)
	a.handle("GET /admin/users", a.listUsers)
	a.handle("POST /admin/users/{user}/disable", a.disableUser)
	a.handle("POST /admin/users/{user}/enable", a.enableUser)
	a.handle("DELETE /admin/users/{user}", a.deleteUser)

	a.repoRoutes()
}

// ServeHTTP serves the API; what no route matches gets a JSON error.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if _, pattern := a.mux.Handler(r); pattern == "" {
		// The mux's own 404 and 405 answers are plain text: keep their
		// status (and Allow header) and give the body the Error shape.
		w = &jsonMuxError{ResponseWriter: w, method: r.Method, path: r.URL.Path}
	}
	// ServeHTTP, not the handler found above: it sets the path values.
	a.mux.ServeHTTP(w, a.withOrigin(r))
}

type jsonMuxError struct {
	http.ResponseWriter
	method, path string
	wrote        bool
}

func (j *jsonMuxError) WriteHeader(code int) {
	if j.wrote {
		return
	}
	j.wrote = true
	msg := "not found: " + j.path
	if code == http.StatusMethodNotAllowed {
		msg = j.method + " is not allowed on " + j.path + "; allowed: " + j.Header().Get("Allow")
	} else if code != http.StatusNotFound {
		msg = http.StatusText(code)
	}
	j.Header().Del("X-Content-Type-Options")
	writeJSON(j.ResponseWriter, code, errorBody{msg})
}

func (j *jsonMuxError) Write(b []byte) (int, error) {
	if !j.wrote {
		j.WriteHeader(http.StatusOK)
	}
	return len(b), nil
}
