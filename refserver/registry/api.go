package registry

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
)

// apiUser checks the basic credentials of a request to /api/....
func (r *Registry) apiUser(req *http.Request) (account, error) {
	unauthorized := basicChallenge("forge registry")
	user, pass, ok := req.BasicAuth()
	if !ok {
		return account{}, unauthorized("authentication required: send your account's username and password (HTTP basic credentials)")
	}
	acct, err := r.accounts.check(req.Context(), user, pass)
	if err != nil {
		return account{}, loginFailure(err, unauthorized)
	}
	return acct, nil
}

// serveAdminCatalog lists every repository with its tags, for admins.
func (r *Registry) serveAdminCatalog(w http.ResponseWriter, req *http.Request) error {
	if req.Method != http.MethodGet {
		return errorf(codeUnsupported, "the catalog is read with GET")
	}
	acct, err := r.apiUser(req)
	if err != nil {
		return err
	}
	if !acct.Admin {
		return errorf(codeDenied, "the full catalog is for admins; GET /v2/_catalog lists what you may pull")
	}
	writeJSON(w, http.StatusOK, r.state.repositories(func(string) bool { return true }))
	return nil
}

// serveAPITags lists a repository's tags with their digests, for whoever
// may pull it and for admins.
func (r *Registry) serveAPITags(w http.ResponseWriter, req *http.Request) error {
	if req.Method != http.MethodGet {
		return errorf(codeUnsupported, "tags are read with GET")
	}
	repo := strings.Trim(strings.TrimPrefix(req.URL.Path, "/api/tags/"), "/")
	if !validRepo(repo) {
		// A path naming no repository: not found, as on /v2/.
		return errorf(codeNotFound, "invalid repository name %q", repo)
	}
	acct, err := r.apiUser(req)
	if err != nil {
		return err
	}
	if !acct.Admin && !r.may(acct.Login, repo, actionPull) {
		return errorf(codeDenied, "%s", denial(acct.Login, repo, actionPull))
	}
	list, found := r.state.tags(repo)
	if !found {
		return errorf(codeNameUnknown, "repository %s not found", repo)
	}
	writeJSON(w, http.StatusOK, list)
	return nil
}

// serveShares shows and changes who may pull a repository; only its owner
// may.
func (r *Registry) serveShares(w http.ResponseWriter, req *http.Request) error {
	repo := strings.Trim(strings.TrimPrefix(req.URL.Path, "/api/shares/"), "/")
	if !validRepo(repo) || owner(repo) == "" {
		return errorf(codeNotFound, "invalid repository name %q: want <user>/<image>", repo)
	}
	acct, err := r.apiUser(req)
	if err != nil {
		return err
	}
	if !owns(acct.Login, repo) {
		return errorf(codeDenied, "only the owner of %s may share it; you may share repositories under %s/...", repo, namespace(acct.Login))
	}
	status := http.StatusOK
	switch req.Method {
	case http.MethodGet:
	case http.MethodPost:
		if err := r.share(req, acct, repo); err != nil {
			return err
		}
		status = http.StatusCreated
	case http.MethodDelete:
		user := req.URL.Query().Get("user")
		if user == "" {
			return errorf(codeUnprocessable, "name the user to stop sharing with: ?user=<username>")
		}
		if err := r.state.unshare(repo, user); err != nil {
			return storageFailed("unsharing the repository", err)
		}
	default:
		return unsupported("GET, POST, DELETE", "shares are read with GET, added with POST and removed with DELETE")
	}
	writeJSON(w, status, map[string]any{"repository": repo, "shared_with": r.state.shareList(repo)})
	return nil
}

// share shares repo with the user the request's body names.
func (r *Registry) share(req *http.Request, acct account, repo string) error {
	var body struct {
		User string `json:"user"`
	}
	data, _ := io.ReadAll(io.LimitReader(req.Body, 1<<16))
	if err := json.Unmarshal(data, &body); err != nil || body.User == "" {
		return errorf(codeUnprocessable, `send {"user": "<username>"} to share with`)
	}
	if namespace(body.User) == namespace(acct.Login) {
		return errorf(codeUnprocessable, "you own this repository already")
	}
	err := r.Share(repo, body.User)
	if errors.Is(err, ErrNoSuchUser) {
		// Refused, so that nobody who takes the login later inherits
		// the share.
		return errorf(codeNotFound, "there is no user %s to share %s with", body.User, repo)
	}
	if err != nil {
		return storageFailed("sharing the repository", err)
	}
	return nil
}
