package registry

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// routeKind is what a /v2/ path addresses.
type routeKind int

const (
	routeBase routeKind = iota
	routeCatalog
	routeTags
	routeManifest
	routeBlob
	routeUpload
	routeReferrers
	routeUnknown
)

type route struct {
	kind routeKind
	repo string
	ref  string // manifest tag or digest, blob digest, upload id
}

// parseRoute reads a /v2/ path from its end, as the protocol's paths are
// built: the repository name may itself hold slashes.
func parseRoute(path string) route {
	rest := strings.Trim(strings.TrimPrefix(path, "/v2"), "/")
	if rest == "" {
		return route{kind: routeBase}
	}
	if rest == "_catalog" {
		return route{kind: routeCatalog}
	}
	el := strings.Split(rest, "/")
	n := len(el)
	at := func(i int, s string) bool { return i >= 0 && i < n && el[i] == s }
	repoUpTo := func(i int) string { return strings.Join(el[:i], "/") }
	switch {
	case n >= 3 && at(n-2, "tags") && at(n-1, "list"):
		return route{kind: routeTags, repo: repoUpTo(n - 2)}
	case n >= 3 && at(n-2, "manifests"):
		return route{kind: routeManifest, repo: repoUpTo(n - 2), ref: el[n-1]}
	case n >= 3 && at(n-2, "blobs") && at(n-1, "uploads"):
		return route{kind: routeUpload, repo: repoUpTo(n - 2)}
	case n >= 4 && at(n-3, "blobs") && at(n-2, "uploads"):
		return route{kind: routeUpload, repo: repoUpTo(n - 3), ref: el[n-1]}
	case n >= 3 && at(n-2, "blobs"):
		return route{kind: routeBlob, repo: repoUpTo(n - 2), ref: el[n-1]}
	case n >= 3 && at(n-2, "referrers"):
		return route{kind: routeReferrers, repo: repoUpTo(n - 2), ref: el[n-1]}
	}
	return route{kind: routeUnknown}
}

// action is what a request needs on its repository.
func (rt route) action(method string) string {
	switch rt.kind {
	case routeUpload:
		return actionPush
	case routeManifest, routeBlob:
		switch method {
		case http.MethodPut:
			return actionPush
		case http.MethodDelete:
			return actionDelete
		}
	}
	return actionPull
}

// scopeFor is the scope a challenge asks for, in the form clients expect:
// writes ask for "pull,push" (an upload checks what exists first).
func (rt route) scopeFor(action string) string {
	switch {
	case rt.kind == routeCatalog:
		return "registry:catalog:*"
	case rt.kind == routeBase || rt.kind == routeUnknown:
		return ""
	case action == actionPush:
		return "repository:" + rt.repo + ":pull,push"
	}
	return "repository:" + rt.repo + ":" + action
}

// principal is who a request comes from: by a token, or by basic
// credentials checked with the login.
type principal struct {
	user  string
	admin bool
	token *claims
}

var (
	errNoCredentials = errors.New("authentication required")
	errTokenInvalid  = errors.New("invalid or expired token")
)

// authenticate reads a Bearer token or basic credentials.
func (r *Registry) authenticate(req *http.Request) (*principal, error) {
	h := req.Header.Get("Authorization")
	scheme, cred, _ := strings.Cut(h, " ")
	switch {
	case strings.EqualFold(scheme, "Bearer") && cred != "":
		c, err := r.verified.get(strings.TrimSpace(cred), r.now(), func(raw string) (*claims, error) {
			return r.signer.verify(raw, r.opts.Issuer, r.opts.Service)
		})
		if err != nil {
			return nil, errTokenInvalid
		}
		if !r.current(c.Subject, c.AccountID) {
			// Disabled or deleted since the token was issued, or the
			// login is another account's now.
			return nil, errTokenInvalid
		}
		return &principal{user: c.Subject, token: c}, nil
	case strings.EqualFold(scheme, "Basic"):
		user, pass, ok := req.BasicAuth()
		if !ok {
			return nil, errBadCredentials
		}
		acct, err := r.accounts.check(req.Context(), user, pass)
		if err != nil {
			return nil, err
		}
		return &principal{user: acct.Login, admin: acct.Admin}, nil
	}
	return nil, errNoCredentials
}

// challenge is a 401 with the Bearer challenge that tells a client where
// to get a token and for what.
func (r *Registry) challenge(req *http.Request, scope, errCode, msg string) *regError {
	realm := r.opts.Realm
	if realm == "" && r.opts.PublicURL != nil {
		realm = r.opts.PublicURL() + "/token"
	}
	if realm == "" {
		proto := "http"
		if req.TLS != nil {
			proto = "https"
		}
		realm = proto + "://" + req.Host + "/token"
	}
	v := fmt.Sprintf("Bearer realm=%q,service=%q", realm, r.opts.Service)
	if scope != "" {
		v += fmt.Sprintf(",scope=%q", scope)
	}
	if errCode != "" {
		v += fmt.Sprintf(",error=%q", errCode)
	}
	return errorf(codeUnauthorized, "%s", msg).with("WWW-Authenticate", v)
}

// authorize decides whether p may take action on the route: 401 asking for
// a wider token when the user may but the token does not say so, 403 when
// the user may not.
func (r *Registry) authorize(req *http.Request, p *principal, rt route, action string) error {
	switch rt.kind {
	case routeBase:
		return nil
	case routeCatalog:
		// Any signed-in caller: the catalog lists only what they may
		// pull, so it needs no registry:catalog:* (which the token
		// service grants to site admins only).
		return nil
	}
	// A token grants what it says only while the policy still does: an
	// unshared repository or a deleted namespace takes effect at once.
	if r.may(p.user, rt.repo, action) {
		if p.token == nil || p.token.allows("repository", rt.repo, action) {
			return nil
		}
		return r.challenge(req, rt.scopeFor(action), "insufficient_scope", fmt.Sprintf("the token does not grant %s on %s", action, rt.repo))
	}
	return errorf(codeDenied, "%s", denial(p.user, rt.repo, action))
}

// denial says why a user may not do something, naming what they may do.
func denial(user, repo, action string) string {
	ns := namespace(user)
	if action == actionPull {
		return fmt.Sprintf("requested access to %s is denied: %s may pull only from %s/... and from repositories shared with them", repo, user, ns)
	}
	return fmt.Sprintf("requested access to %s is denied: %s may %s only in %s/...", repo, user, action, ns)
}

func (r *Registry) serveV2(w http.ResponseWriter, req *http.Request) error {
	w.Header().Set("Docker-Distribution-API-Version", "registry/2.0")
	rt := parseRoute(req.URL.Path)
	if rt.kind == routeUnknown {
		// Before authentication, as distribution's router does: the path
		// names nothing, so there is nothing to deny.
		return errorf(codeNotFound, "%s is not a path of the registry protocol", req.URL.Path)
	}
	if rt.kind != routeBase && rt.kind != routeCatalog && !validRepo(rt.repo) {
		return errorf(codeNameInvalid, "invalid repository name %q", rt.repo)
	}
	action := rt.action(req.Method)
	p, err := r.authenticate(req)
	if err != nil {
		kind := ""
		if errors.Is(err, errTokenInvalid) {
			kind = "invalid_token"
		}
		return loginFailure(err, func(msg string) *regError {
			return r.challenge(req, rt.scopeFor(action), kind, msg)
		})
	}
	if err := r.authorize(req, p, rt, action); err != nil {
		return err
	}
	switch rt.kind {
	case routeCatalog:
		return r.serveCatalog(w, req, p)
	case routeTags:
		return r.serveTags(w, req, rt)
	case routeManifest:
		return r.serveManifest(w, req, rt)
	case routeBlob:
		return r.serveBlob(w, req, rt)
	case routeUpload:
		return r.serveUpload(w, req, p, rt)
	case routeReferrers:
		return r.serveReferrers(w, req, rt)
	}
	writeJSON(w, http.StatusOK, map[string]any{})
	return nil
}

// serveCatalog lists the repositories the caller may pull, sorted, with
// the protocol's n/last pagination.
func (r *Registry) serveCatalog(w http.ResponseWriter, req *http.Request, p *principal) error {
	if req.Method != http.MethodGet {
		return errorf(codeUnsupported, "the catalog is read with GET")
	}
	var names []string
	for _, e := range r.state.repositories(func(repo string) bool { return r.may(p.user, repo, actionPull) }) {
		names = append(names, e.Name)
	}
	page, next, err := paginate(req, names)
	if err != nil {
		return err
	}
	if next != "" {
		setNextLink(w, "/v2/_catalog", next, req)
	}
	writeJSON(w, http.StatusOK, map[string]any{"repositories": page})
	return nil
}

func (r *Registry) serveTags(w http.ResponseWriter, req *http.Request, rt route) error {
	if req.Method != http.MethodGet {
		return errorf(codeUnsupported, "tags are listed with GET")
	}
	list, ok := r.state.tags(rt.repo)
	if !ok {
		return errorf(codeNameUnknown, "repository %s not found", rt.repo)
	}
	names := make([]string, len(list))
	for i, t := range list {
		names[i] = t.Name
	}
	page, next, err := paginate(req, names)
	if err != nil {
		return err
	}
	if next != "" {
		setNextLink(w, "/v2/"+rt.repo+"/tags/list", next, req)
	}
	writeJSON(w, http.StatusOK, map[string]any{"name": rt.repo, "tags": page})
	return nil
}

// paginate applies ?last= and ?n= to a sorted list; next is the last entry
// of the page when more follow.
func paginate(req *http.Request, all []string) (page []string, next string, err error) {
	q := req.URL.Query()
	if last := q.Get("last"); last != "" {
		i := 0
		for i < len(all) && all[i] <= last {
			i++
		}
		all = all[i:]
	}
	page = all
	if ns := q.Get("n"); ns != "" {
		n, err := strconv.Atoi(ns)
		if err != nil || n < 0 {
			return nil, "", errorf(codePaginationNumberInvalid, "n must be a number, not %q", ns)
		}
		if n < len(all) {
			page = all[:n]
			if n > 0 {
				next = page[n-1]
			}
		}
	}
	if page == nil {
		page = []string{}
	}
	return page, next, nil
}

func setNextLink(w http.ResponseWriter, path, last string, req *http.Request) {
	q := url.Values{"last": {last}, "n": {req.URL.Query().Get("n")}}
	w.Header().Set("Link", fmt.Sprintf("<%s?%s>; rel=\"next\"", path, q.Encode()))
}

func (r *Registry) serveUpload(w http.ResponseWriter, req *http.Request, p *principal, rt route) error {
	q := req.URL.Query()
	if rt.ref == "" {
		return r.startUpload(w, req, p, rt)
	}
	u := r.uploads.get(rt.repo, rt.ref)
	if u == nil {
		return errorf(codeBlobUploadUnknown, "upload %s of %s not found: it was completed, cancelled, or abandoned for %s; start again with POST /v2/%s/blobs/uploads/", rt.ref, rt.repo, r.opts.UploadTTL, rt.repo)
	}
	defer func() {
		// Touched when the request ends too: a long PATCH is not idle time.
		u.touched = r.now()
		u.mu.Unlock()
	}()
	u.touched = r.now()
	switch req.Method {
	case http.MethodGet:
		u.progress(w.Header())
		w.WriteHeader(http.StatusNoContent)
	case http.MethodDelete:
		r.uploads.drop(u)
		w.WriteHeader(http.StatusNoContent)
	case http.MethodPatch:
		if err := r.appendChunk(w, req, u); err != nil {
			return err
		}
		u.progress(w.Header())
		w.Header().Set("Content-Length", "0")
		w.WriteHeader(http.StatusAccepted)
	case http.MethodPut:
		if err := r.appendChunk(w, req, u); err != nil {
			return err
		}
		return r.completeUpload(w, u, q.Get("digest"))
	default:
		return unsupported("GET, PATCH, PUT, DELETE", "an upload is continued with PATCH, completed with PUT, read with GET and cancelled with DELETE")
	}
	return nil
}

// startUpload answers POST .../blobs/uploads/: a mount, a whole blob in
// one request (?digest=), or a new upload to PATCH.
func (r *Registry) startUpload(w http.ResponseWriter, req *http.Request, p *principal, rt route) error {
	if req.Method != http.MethodPost {
		return unsupported("POST", "an upload is started with POST")
	}
	q := req.URL.Query()
	if m := q.Get("mount"); m != "" {
		if mounted, err := r.mount(w, p, rt.repo, m, q.Get("from")); mounted || err != nil {
			return err
		}
	}
	r.expireUploads()
	u, err := r.uploads.start(rt.repo, p.user, r.opts.MaxUploads, r.now())
	if errors.Is(err, errTooManyUploads) {
		return errorf(codeTooManyRequests, "%v", err)
	}
	if err != nil {
		return storageFailed("starting the upload", err)
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if d := q.Get("digest"); d != "" {
		if err := r.appendChunk(w, req, u); err != nil {
			r.uploads.drop(u)
			return err
		}
		return r.completeUpload(w, u, d)
	}
	u.progress(w.Header())
	w.Header().Set("Content-Length", "0")
	w.WriteHeader(http.StatusAccepted)
	return nil
}

// appendChunk adds the request's body to the upload. A Content-Range must
// start where the upload ends (416 otherwise, with the upload's progress,
// so the client can resume).
func (r *Registry) appendChunk(w http.ResponseWriter, req *http.Request, u *upload) error {
	start, end, has, err := contentRange(req)
	if err != nil {
		return errorf(codeBlobUploadInvalid, "%v", err)
	}
	if has && (start != u.size || req.ContentLength >= 0 && req.ContentLength != end-start+1) {
		e := errorf(codeRangeInvalid, "chunk %d-%d does not continue the upload, which holds %d bytes: send the chunk that starts at byte %d", start, end, u.size, u.size)
		u.progress(e.header)
		return e
	}
	if req.ContentLength == 0 {
		return nil
	}
	if err := u.appendFrom(r.paced(w, req), req.ContentLength); err != nil {
		var be *bodyError
		if errors.As(err, &be) {
			return errorf(codeBlobUploadInvalid, "reading the chunk: %v", be)
		}
		return storageFailed("storing the chunk", err)
	}
	return nil
}

// completeUpload checks the upload against the digest it is completed with
// and makes it a blob of its repository. A wrong digest drops the upload.
func (r *Registry) completeUpload(w http.ResponseWriter, u *upload, digest string) error {
	alg, _, ok := parseDigest(digest)
	if !ok {
		r.uploads.drop(u)
		return errorf(codeDigestInvalid, "complete the upload with ?digest=sha256:<64 hex digits> (or sha512:), not %q", digest)
	}
	got, err := u.digest(alg)
	if err == nil && got != digest {
		r.uploads.drop(u)
		return errorf(codeDigestInvalid, "the uploaded content's digest is %s, not %s", got, digest)
	}
	if err == nil {
		r.storeMu.Lock()
		err = r.install(u.path, "blobs", digest)
		if err == nil {
			if err = r.state.linkBlob(u.repo, digest); err != nil {
				// Not linked: the file goes unless another
				// repository holds it.
				r.removeUnused("blobs", []string{digest})
			}
		}
		r.storeMu.Unlock()
	}
	r.uploads.drop(u)
	if err != nil {
		return storageFailed("storing the blob", err)
	}
	created(w, "/v2/"+u.repo+"/blobs/"+digest, digest)
	return nil
}

// created answers 201 for what was stored at location, with its digest.
func created(w http.ResponseWriter, location, digest string) {
	h := w.Header()
	h.Set("Location", location)
	h.Set("Docker-Content-Digest", digest)
	h.Set("Content-Length", "0")
	w.WriteHeader(http.StatusCreated)
}

// expireUploads drops the uploads nobody touched for UploadTTL.
func (r *Registry) expireUploads() {
	if n := r.uploads.expire(r.now().Add(-r.opts.UploadTTL)); n > 0 {
		r.logf("dropped %d uploads abandoned for %s", n, r.opts.UploadTTL)
	}
}

// mount links a blob the user may already read elsewhere into repo,
// answering 201 as the protocol says; it reports false when there is
// nothing to mount.
func (r *Registry) mount(w http.ResponseWriter, p *principal, repo, digest, from string) (bool, error) {
	if !validDigest(digest) {
		return false, nil
	}
	candidates := []string{from}
	if from == "" {
		candidates = r.state.reposWithBlob(digest)
	}
	r.storeMu.Lock()
	defer r.storeMu.Unlock()
	for _, c := range candidates {
		if c == "" || !r.state.hasBlob(c, digest) || !r.may(p.user, c, actionPull) {
			continue
		}
		if err := r.state.linkBlob(repo, digest); err != nil {
			return false, storageFailed("mounting the blob", err)
		}
		created(w, "/v2/"+repo+"/blobs/"+digest, digest)
		return true, nil
	}
	return false, nil
}

// paced is the request's body, cut off when it arrives slower than
// ChunkGrace plus ChunkRate allow: a client trickling a byte at a time
// holds a connection and an upload's lock for no more than that.
func (r *Registry) paced(w http.ResponseWriter, req *http.Request) io.Reader {
	return &pacedReader{r: req.Body, rc: http.NewResponseController(w), start: time.Now(), grace: r.opts.ChunkGrace, rate: r.opts.ChunkRate}
}

type pacedReader struct {
	r     io.Reader
	rc    *http.ResponseController
	start time.Time
	grace time.Duration
	rate  int64
	n     int64
}

// Read moves the connection's read deadline to when the bytes received so
// far were due at the latest, plus the grace.
func (p *pacedReader) Read(b []byte) (int, error) {
	due := p.start.Add(p.grace + time.Duration(p.n*int64(time.Second)/p.rate))
	p.rc.SetReadDeadline(due)
	n, err := p.r.Read(b)
	p.n += int64(n)
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		err = fmt.Errorf("the body arrived slower than this registry accepts (%s, then %d KiB/s)", p.grace, p.rate>>10)
	}
	return n, err
}
