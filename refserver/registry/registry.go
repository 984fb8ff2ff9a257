// Package registry is the reference server's private container registry:
// the registry protocol v2, served by go-containerregistry's pkg/registry,
// behind Docker token authentication, with a token service that checks
// credentials by calling the REST API's POST {base_url}/auth/login.
//
// # Routes
//
//	/v2/...                       registry protocol (Bearer tokens; HTTP basic credentials work too)
//	GET, POST /token              token service (Docker token spec; OAuth2 password grant on POST)
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
// which lists only what they may pull. Anonymous requests get 401.
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
// may use them, and no garbage collection runs. A blob is readable only
// through repositories it was uploaded or mounted to. A blob upload may
// mount a blob (POST ...?mount=DIGEST[&from=REPO]) from any repository the
// user may pull, with or without "from".
//
// Listing shapes: GET /api/catalog answers an array of {name, namespace,
// tags, manifests, updated_at}; GET /api/tags/<repo> an array of {name,
// digest, media_type, size, updated_at}; errors there are {"error": "..."}.
// Registry protocol errors are the protocol's {"errors":[{code, message}]}.
//
// Under a data directory, blobs are files under blobs/, manifests under
// manifests/, the index, blob links and shares in state.json, and the
// token key in token.key with its certificate in token.crt.
package registry

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	ggcr "github.com/google/go-containerregistry/pkg/registry"
)

// Options configure a Registry.
type Options struct {
	// BaseURL returns the REST API's base URL ({origin}/api/v2); the token
	// service checks credentials with POST {BaseURL()}/auth/login. It is a
	// function because the reference server knows its port only once it
	// listens.
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
	// {scheme}://{the request's host}/token, so it is always on the
	// registry's own host and port, as clients require.
	Realm string
	// CredentialTTL is how long a successful login check is remembered;
	// default 30 seconds, negative to check every time.
	CredentialTTL time.Duration
	// Log receives one line per registry request; nil discards them.
	Log io.Writer
	// HTTPClient calls the login endpoint; default a client with a
	// 15-second timeout.
	HTTPClient *http.Client
}

// Registry is the registry, its token service and its listing endpoints.
type Registry struct {
	opts        Options
	inner       http.Handler
	state       *state
	signer      *signer
	accounts    *accounts
	manifestDir string
	now         func() time.Time
}

// maxManifest is the largest manifest accepted, as in the CNCF registry.
const maxManifest = 4 << 20

// New builds a registry. With a data directory it loads what an earlier
// run stored there.
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
	r := &Registry{opts: opts, now: time.Now}
	r.accounts = newAccounts(opts.BaseURL, opts.HTTPClient, opts.CredentialTTL)
	var blobs ggcr.BlobHandler = ggcr.NewInMemoryBlobHandler()
	var err error
	if opts.DataDir != "" {
		if err := os.MkdirAll(opts.DataDir, 0o700); err != nil {
			return nil, err
		}
		blobs = diskBlobs{dir: filepath.Join(opts.DataDir, "blobs")}
		r.manifestDir = filepath.Join(opts.DataDir, "manifests")
	}
	if r.signer, err = loadOrCreateSigner(opts.DataDir); err != nil {
		return nil, fmt.Errorf("registry signing key: %w", err)
	}
	if r.state, err = loadState(opts.DataDir); err != nil {
		return nil, fmt.Errorf("registry state: %w", err)
	}
	r.inner = ggcr.New(
		ggcr.WithBlobHandler(blobs),
		ggcr.WithReferrersSupport(true),
		ggcr.Logger(log.New(logw, "registry: ", log.LstdFlags)),
	)
	if err := r.restore(); err != nil {
		return nil, fmt.Errorf("registry state: %w", err)
	}
	return r, nil
}

// Mount registers the registry's routes on mux.
func (r *Registry) Mount(mux *http.ServeMux) {
	mux.HandleFunc("/v2/", r.serveV2)
	mux.Handle("/token", r.TokenHandler())
	mux.HandleFunc("/api/catalog", r.serveAdminCatalog)
	mux.HandleFunc("/api/tags/", r.serveAPITags)
	mux.HandleFunc("/api/shares/", r.serveShares)
}

// TokenHandler is the token service alone, to mount wherever a registry
// expects its realm.
func (r *Registry) TokenHandler() http.Handler { return http.HandlerFunc(r.serveToken) }

// Service is the service name tokens for this registry carry as audience.
func (r *Registry) Service() string { return r.opts.Service }

// Issuer is the tokens' issuer.
func (r *Registry) Issuer() string { return r.opts.Issuer }

// CertificatePEM is the certificate of the key tokens are signed with, for
// a registry's auth.token.rootcertbundle.
func (r *Registry) CertificatePEM() []byte { return bytes.Clone(r.signer.certPEM) }

// Share lets user pull the repository repo ("alice/app").
func (r *Registry) Share(repo, user string) error {
	if !validRepo(repo) || owner(repo) == "" {
		return fmt.Errorf("invalid repository name %q", repo)
	}
	return r.state.share(repo, user)
}

// Unshare takes the right to pull repo away from user.
func (r *Registry) Unshare(repo, user string) error { return r.state.unshare(repo, user) }

// SharedWith lists the users repo is shared with.
func (r *Registry) SharedWith(repo string) []string { return r.state.shareList(repo) }

// restore replays the manifests a data directory holds into pkg/registry,
// which keeps manifests only in memory: images before the indexes that
// list them, then the tags.
func (r *Registry) restore() error {
	if r.manifestDir == "" {
		return nil
	}
	for repo, rs := range r.state.Repos {
		pending := map[string]manifestInfo{}
		for d, mi := range rs.Manifests {
			pending[d] = mi
		}
		for len(pending) > 0 {
			progress := false
			for d, mi := range pending {
				body, err := os.ReadFile(r.manifestPath(d))
				if err != nil {
					return err
				}
				if r.internal(http.MethodPut, "/v2/"+repo+"/manifests/"+d, mi.MediaType, body) == http.StatusCreated {
					delete(pending, d)
					progress = true
				}
			}
			if !progress {
				return fmt.Errorf("%s: %d manifests refer to manifests that are missing", repo, len(pending))
			}
		}
		for t, ti := range rs.Tags {
			body, err := os.ReadFile(r.manifestPath(ti.Digest))
			if err != nil {
				return err
			}
			r.internal(http.MethodPut, "/v2/"+repo+"/manifests/"+t, rs.Manifests[ti.Digest].MediaType, body)
		}
	}
	return nil
}

func (r *Registry) manifestPath(digest string) string {
	return filepath.Join(r.manifestDir, "sha256", strings.TrimPrefix(digest, "sha256:"))
}

// internal sends a request to pkg/registry from inside and returns its
// status.
func (r *Registry) internal(method, path, contentType string, body []byte) int {
	req, err := http.NewRequest(method, path, bytes.NewReader(body))
	if err != nil {
		return 0
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	w := &discardWriter{h: http.Header{}}
	r.inner.ServeHTTP(w, req)
	return w.status
}

type discardWriter struct {
	h      http.Header
	status int
}

func (w *discardWriter) Header() http.Header { return w.h }
func (w *discardWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return len(b), nil
}
func (w *discardWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}

// statusWriter remembers the status pkg/registry answered with, passing
// everything through (ReadFrom too, so blob downloads keep sendfile).
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) ReadFrom(src io.Reader) (int64, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return io.Copy(w.ResponseWriter, src)
}

// regError writes an error of the registry protocol.
func regError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{
		"errors": []map[string]string{{"code": code, "message": msg}},
	})
}

// apiError writes the service's error shape, {"error": "..."}.
func apiError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	data, _ := json.MarshalIndent(v, "", "  ")
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", fmt.Sprint(len(data)+1))
	w.WriteHeader(status)
	w.Write(append(data, '\n'))
}

func sha256Digest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}
