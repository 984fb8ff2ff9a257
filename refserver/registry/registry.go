// Package registry is the reference server's private container registry:
// the registry protocol v2 and the OCI distribution specification 1.1
// (blobs, chunked and monolithic uploads, sha256 and sha512 digests,
// manifests, tags, referrers, Range requests), behind Docker token
// authentication, with a token service that checks credentials by calling
// the REST API's POST {base_url}/auth/login.
//
// # Routes
//
//	/v2/...                       registry protocol (Bearer tokens; HTTP basic credentials work too)
//	GET, POST /token              token service (Docker token spec; OAuth2 password grant on POST)
//	GET /token/certificate.pem    the token-signing certificate, for another registry to trust
//	GET /api/catalog              every repository, with tags (admins only; basic credentials)
//	GET /api/tags/<repo>          the tags of one repository with digests (basic credentials)
//	GET, POST, DELETE /api/shares/<repo>  who a repository is shared with (its owner; basic credentials)
//
// # Choices where the specification says "not shown"
//
// Tokens are ES256 JWTs with the claims iss, sub, aud (one string), exp,
// nbf, iat, jti and access [{type, name, actions}], a "kid" header holding
// the key's libtrust ID, and live five minutes. The token endpoint answers
// {token, access_token, expires_in, issued_at}. It grants the intersection
// of the scopes asked for and what the user may do, and issues a token even
// when that is empty; the registry then answers 403 DENIED. The audience is
// the "service" asked for, so the same token service can be the issuer of
// another registry (for example the CNCF distribution registry, given
// Issuer, Service and CertificatePEM in its auth.token settings).
//
// A user may push to and delete from repositories under the namespace
// equal to their username in lower case ("alice/app", "alice/team/app"),
// and pull from those and from repositories shared with them. Admins get
// no more: images are private. Anyone signed in may ask for the catalog,
// which lists only what they may pull; the token service grants
// registry:catalog:* to site admins only, for registries whose catalog
// lists everything. Anonymous requests get 401. With Options.UserState,
// every request checks that the account is still active.
//
// Sharing is per repository: the owner shares alice/app with bob by
// POST /api/shares/alice/app with {"user":"bob"}, lists with GET and
// revokes with DELETE /api/shares/alice/app?user=bob; each answers
// {"repository":"alice/app","shared_with":["bob"]}. Sharing a repository
// that holds nothing yet is allowed. The Go API is Share and Unshare.
//
// Deleting a manifest by digest also deletes every tag that points at it;
// deleting by tag removes only the tag. Deleting a blob only unlinks it from
// that repository: blobs are stored once by digest and other repositories
// may use them; its file goes with the last link. A blob is readable only
// through repositories it was uploaded or mounted to. A blob upload may
// mount a blob (POST ...?mount=DIGEST[&from=REPO]) from any repository the
// user may pull, with or without "from".
//
// Listing shapes: GET /api/catalog answers an array of {name, namespace,
// tags, manifests, updated_at}; GET /api/tags/<repo> an array of {name,
// digest, media_type, size, updated_at}; errors there are {"error": "..."}.
// Registry protocol errors are the protocol's {"errors":[{code, message}]}.
//
// Blobs and manifests are files named by digest under blobs/ and
// manifests/, uploads in progress files under uploads/ (dropped after
// UploadTTL untouched, and at Close). Under a data directory the index,
// blob links and shares are in state.json and the token key in token.key
// with its certificate in token.crt; without one, everything lives in a
// temporary directory that Close removes.
package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Options configure a Registry.
type Options struct {
	// BaseURL returns the REST API's base URL ({origin}/api/v2); the token
	// service checks credentials with POST {BaseURL()}/auth/login. It is a
	// function because the reference server knows its port only once it
	// listens. BaseURL, PublicURL, UserState and AccountID are called from
	// the goroutines of the requests being served, several at once: each
	// must be safe for concurrent use.
	BaseURL func() string
	// DataDir keeps blobs, manifests, shares and the signing key across
	// restarts; empty keeps everything in memory.
	DataDir string
	// Service is the name the registry gives in its challenge and expects
	// as a token's audience; default "forge-registry".
	Service string
	// Issuer is the tokens' "iss"; default "forge-token-service".
	Issuer string
	// TokenTTL is how long a token lives; default five minutes.
	TokenTTL time.Duration
	// Realm is the token endpoint's URL in challenges; default
	// {PublicURL()}/token.
	Realm string
	// PublicURL returns the origin clients reach the server at (forge
	// serve --public-url); the realm is built from it, never from the
	// request's Host header. Nil falls back to {scheme}://{Host}.
	PublicURL func() string
	// CredentialTTL is how long a successful login check is remembered;
	// default 30 seconds, negative to check every time.
	CredentialTTL time.Duration
	// Log receives one line per registry request; nil discards them.
	Log io.Writer
	// HTTPClient calls the login endpoint; default a client with a
	// 15-second timeout.
	HTTPClient *http.Client
	// UploadTTL is how long an upload may sit untouched before it is
	// dropped and its file deleted; default UploadTTL (an hour).
	UploadTTL time.Duration
	// MaxUploads bounds the uploads in progress one user may hold (each is
	// a file kept until it completes or expires); default MaxUploads. A
	// POST past it answers 429 TOOMANYREQUESTS.
	MaxUploads int
	// ChunkGrace and ChunkRate bound how long the body of a PATCH, PUT or
	// POST carrying upload bytes may take: ChunkGrace plus the time to
	// receive it at ChunkRate bytes a second (defaults 30 s and 64 KiB/s;
	// 1 GiB may take 4.6 hours). A body slower than that is cut off with
	// 400 BLOB_UPLOAD_INVALID and the upload kept as it was before it.
	ChunkGrace time.Duration
	ChunkRate  int64
	// UserState tells whether a login exists and may sign in. When set,
	// every registry request checks it, so a disabled or deleted account
	// loses access at once (not when its token or cached credentials
	// expire), and sharing with a login that does not exist is refused.
	UserState func(login string) UserState
	// AccountID is the id of the account holding login now, "" when none.
	// When set, tokens carry the id of the account they were issued to
	// and cached credentials remember it, and both stop working when the
	// login's account is another one (deleted, and the name taken again)
	// or says another id: the reference server's id names the account's
	// sessions too (ID.N, N moving on at each change of password or
	// two-factor state), so a token issued before such a change stops
	// working at once.
	AccountID func(login string) string
}

// UserState is what the account service says about a login.
type UserState int

// The states of a login.
const (
	UserMissing UserState = iota
	UserActive
	UserDisabled
)

// Registry is the registry, its token service and its listing endpoints.
type Registry struct {
	opts     Options
	state    *state
	signer   *signer
	accounts *accounts
	verified verifiedTokens
	uploads  *uploads
	log      *log.Logger
	disk     *disk
	now      func() time.Time

	// dir holds blobs, manifests and uploads: DataDir, or a temporary
	// directory (temp) removed at Close. durable: files are synced before
	// a request that wrote them is answered.
	dir     string
	temp    bool
	durable bool
	// storeMu orders making a digest's file visible and linking it
	// against unlinking a digest and deleting its file once unused.
	storeMu sync.Mutex

	stop      chan struct{}
	closeOnce sync.Once
}

// New builds a registry. With a data directory it loads what an earlier
// run stored there; without one it keeps its files in a temporary
// directory, which Close removes.
func New(opts Options) (*Registry, error) {
	if opts.Service == "" {
		opts.Service = "forge-registry"
	}
	if opts.Issuer == "" {
		opts.Issuer = "forge-token-service"
	}
	if opts.TokenTTL <= 0 {
		opts.TokenTTL = 5 * time.Minute
	}
	if opts.CredentialTTL == 0 {
		opts.CredentialTTL = 30 * time.Second
	}
	if opts.UploadTTL <= 0 {
		opts.UploadTTL = UploadTTL
	}
	if opts.MaxUploads <= 0 {
		opts.MaxUploads = MaxUploads
	}
	if opts.ChunkGrace <= 0 {
		opts.ChunkGrace = 30 * time.Second
	}
	if opts.ChunkRate <= 0 {
		opts.ChunkRate = 64 << 10
	}
	if opts.BaseURL == nil {
		opts.BaseURL = func() string { return "" }
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{Timeout: 15 * time.Second}
	}
	logw := opts.Log
	if logw == nil {
		logw = io.Discard
	}
	r := &Registry{opts: opts, now: time.Now, log: log.New(logw, "registry: ", log.LstdFlags), disk: &disk{}, stop: make(chan struct{})}
	r.accounts = newAccounts(opts.BaseURL, opts.HTTPClient, opts.CredentialTTL, func(a account) bool { return r.current(a.Login, a.ID) }, opts.AccountID)
	var err error
	if opts.DataDir != "" {
		if err := os.MkdirAll(opts.DataDir, 0o700); err != nil {
			return nil, err
		}
		r.dir, r.durable = opts.DataDir, true
	} else {
		if r.dir, err = os.MkdirTemp("", "forge-registry-*"); err != nil {
			return nil, fmt.Errorf("registry storage: %w", err)
		}
		r.temp = true
	}
	if r.signer, err = loadOrCreateSigner(opts.DataDir); err != nil {
		r.removeTemp()
		return nil, fmt.Errorf("registry signing key: %w", err)
	}
	if r.state, err = loadState(opts.DataDir, r.disk); err != nil {
		r.removeTemp()
		return nil, fmt.Errorf("registry state: %w", err)
	}
	if r.uploads, err = newUploads(filepath.Join(r.dir, "uploads"), r.disk); err != nil {
		r.removeTemp()
		return nil, fmt.Errorf("registry uploads: %w", err)
	}
	go r.expireLoop()
	return r, nil
}

// Close drops every upload in progress and, without a data directory,
// deletes everything the registry stored. Requests must have ended.
func (r *Registry) Close() error {
	var err error
	r.closeOnce.Do(func() {
		close(r.stop)
		r.uploads.dropAll()
		err = r.removeTemp()
	})
	return err
}

func (r *Registry) removeTemp() error {
	if !r.temp {
		return nil
	}
	return os.RemoveAll(r.dir)
}

// expireLoop drops abandoned uploads even when nobody starts a new one
// (starting one also does).
func (r *Registry) expireLoop() {
	t := time.NewTicker(max(min(r.opts.UploadTTL/4, 5*time.Minute), time.Second))
	defer t.Stop()
	for {
		select {
		case <-r.stop:
			return
		case <-t.C:
			r.expireUploads()
		}
	}
}

func (r *Registry) logf(format string, args ...any) { r.log.Printf(format, args...) }

// Mount registers the registry's routes on mux.
func (r *Registry) Mount(mux *http.ServeMux) {
	mux.Handle("/v2/", r.handler(r.serveV2, protocolBody))
	mux.Handle("/token", r.TokenHandler())
	mux.Handle(CertificatePath, r.handler(r.serveCertificate, serviceBody))
	mux.Handle("/api/catalog", r.handler(r.serveAdminCatalog, serviceBody))
	mux.Handle("/api/tags/", r.handler(r.serveAPITags, serviceBody))
	mux.Handle("/api/shares/", r.handler(r.serveShares, serviceBody))
}

// TokenHandler is the token service alone, to mount wherever a registry
// expects its realm.
func (r *Registry) TokenHandler() http.Handler { return r.handler(r.serveToken, tokenBody) }

// CertificatePath is where the token-signing certificate is served, for a
// registry that trusts this token service (auth.token.rootcertbundle).
const CertificatePath = "/token/certificate.pem"

// serveCertificate serves the token-signing certificate, to anyone: it is
// public, and a registry needs it before it has any credentials.
func (r *Registry) serveCertificate(w http.ResponseWriter, req *http.Request) error {
	if req.Method != http.MethodGet && req.Method != http.MethodHead {
		return unsupported("GET, HEAD", "the certificate is read with GET")
	}
	w.Header().Set("Content-Type", "application/x-pem-file")
	w.Header().Set("Content-Length", fmt.Sprint(len(r.signer.certPEM)))
	w.WriteHeader(http.StatusOK)
	if req.Method == http.MethodGet {
		w.Write(r.signer.certPEM)
	}
	return nil
}

// Service is the service name tokens for this registry carry as audience.
func (r *Registry) Service() string { return r.opts.Service }

// Issuer is the tokens' issuer.
func (r *Registry) Issuer() string { return r.opts.Issuer }

// CertificatePEM is the certificate of the key tokens are signed with, for
// a registry's auth.token.rootcertbundle.
func (r *Registry) CertificatePEM() []byte { return bytes.Clone(r.signer.certPEM) }

// ErrNoSuchUser is Share's error for a login that does not exist.
var ErrNoSuchUser = errors.New("no such user")

// Share lets user pull the repository repo ("alice/app").
func (r *Registry) Share(repo, user string) error {
	if !validRepo(repo) || owner(repo) == "" {
		return fmt.Errorf("invalid repository name %q", repo)
	}
	if r.userState(user) == UserMissing {
		return fmt.Errorf("%w: %s", ErrNoSuchUser, user)
	}
	return r.state.share(repo, user)
}

// current reports whether the account with id still holds login and may
// sign in. Without Options.AccountID, any account holding login counts.
func (r *Registry) current(login, id string) bool {
	if r.userState(login) != UserActive {
		return false
	}
	return r.opts.AccountID == nil || id != "" && r.opts.AccountID(login) == id
}

// userState is the login's state, UserActive when nobody can tell.
func (r *Registry) userState(login string) UserState {
	if r.opts.UserState == nil {
		return UserActive
	}
	return r.opts.UserState(login)
}

// DeleteNamespace forgets everything of a deleted user: the repositories
// of their namespace with their tags, and every share to or from them, so
// an account created later with the same login inherits nothing. Files no
// repository refers to any more are deleted.
func (r *Registry) DeleteNamespace(login string) error {
	r.storeMu.Lock()
	defer r.storeMu.Unlock()
	blobs, manifests, err := r.state.deleteNamespace(namespace(login))
	r.removeUnused("blobs", blobs)
	r.removeUnused("manifests", manifests)
	return err
}

// Unshare takes the right to pull repo away from user.
func (r *Registry) Unshare(repo, user string) error { return r.state.unshare(repo, user) }

// SharedWith lists the users repo is shared with.
func (r *Registry) SharedWith(repo string) []string { return r.state.shareList(repo) }

func writeJSON(w http.ResponseWriter, status int, v any) {
	data, _ := json.MarshalIndent(v, "", "  ")
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", fmt.Sprint(len(data)+1))
	w.WriteHeader(status)
	w.Write(append(data, '\n'))
}
