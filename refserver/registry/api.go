package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// apiUser checks the basic credentials of a request to /api/..., writing
// the error itself when there are none or they are wrong.
func (r *Registry) apiUser(w http.ResponseWriter, req *http.Request) (account, bool) {
	user, pass, ok := req.BasicAuth()
	if !ok {
		w.Header().Set("WWW-Authenticate", `Basic realm="forge registry"`)
		apiError(w, http.StatusUnauthorized, "authentication required: send your account's username and password (HTTP basic credentials)")
		return account{}, false
	}
	acct, err := r.accounts.check(req.Context(), user, pass)
	switch {
	case errors.Is(err, errBadCredentials):
		w.Header().Set("WWW-Authenticate", `Basic realm="forge registry"`)
		apiError(w, http.StatusUnauthorized, "wrong username or password")
		return account{}, false
	case errors.Is(err, errLockedOut):
		apiError(w, http.StatusTooManyRequests, err.Error())
		return account{}, false
	case err != nil:
		apiError(w, http.StatusBadGateway, err.Error())
		return account{}, false
	}
	return acct, true
}

// serveAdminCatalog lists every repository with its tags, for admins.
func (r *Registry) serveAdminCatalog(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodGet {
		apiError(w, http.StatusMethodNotAllowed, "the catalog is read with GET")
		return
	}
	acct, ok := r.apiUser(w, req)
	if !ok {
		return
	}
	if !acct.Admin {
		apiError(w, http.StatusForbidden, "the full catalog is for admins; GET /v2/_catalog lists what you may pull")
		return
	}
	writeJSON(w, http.StatusOK, r.state.repositories(func(string) bool { return true }))
}

// serveAPITags lists a repository's tags with their digests, for whoever
// may pull it and for admins.
func (r *Registry) serveAPITags(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodGet {
		apiError(w, http.StatusMethodNotAllowed, "tags are read with GET")
		return
	}
	repo := strings.Trim(strings.TrimPrefix(req.URL.Path, "/api/tags/"), "/")
	if !validRepo(repo) {
		apiError(w, http.StatusNotFound, fmt.Sprintf("invalid repository name %q", repo))
		return
	}
	acct, ok := r.apiUser(w, req)
	if !ok {
		return
	}
	if !acct.Admin && !r.may(acct.Login, repo, actionPull) {
		apiError(w, http.StatusForbidden, denial(acct.Login, repo, actionPull))
		return
	}
	list, found := r.state.tags(repo)
	if !found {
		apiError(w, http.StatusNotFound, fmt.Sprintf("repository %s not found", repo))
		return
	}
	writeJSON(w, http.StatusOK, list)
}

// serveShares shows and changes who may pull a repository; only its owner
// may.
func (r *Registry) serveShares(w http.ResponseWriter, req *http.Request) {
	repo := strings.Trim(strings.TrimPrefix(req.URL.Path, "/api/shares/"), "/")
	if !validRepo(repo) || owner(repo) == "" {
		apiError(w, http.StatusNotFound, fmt.Sprintf("invalid repository name %q: want <user>/<image>", repo))
		return
	}
	acct, ok := r.apiUser(w, req)
	if !ok {
		return
	}
	if !owns(acct.Login, repo) {
		apiError(w, http.StatusForbidden, fmt.Sprintf("only the owner of %s may share it; you may share repositories under %s/...", repo, namespace(acct.Login)))
		return
	}
	status := http.StatusOK
	switch req.Method {
	case http.MethodGet:
	case http.MethodPost:
		var body struct {
			User string `json:"user"`
		}
		data, _ := io.ReadAll(io.LimitReader(req.Body, 1<<16))
		if err := json.Unmarshal(data, &body); err != nil || body.User == "" {
			apiError(w, http.StatusUnprocessableEntity, `send {"user": "<username>"} to share with`)
			return
		}
		if namespace(body.User) == namespace(acct.Login) {
			apiError(w, http.StatusUnprocessableEntity, "you own this repository already")
			return
		}
		if err := r.Share(repo, body.User); errors.Is(err, ErrNoSuchUser) {
			// Refused, so that nobody who takes the login later inherits
			// the share.
			apiError(w, http.StatusNotFound, fmt.Sprintf("there is no user %s to share %s with", body.User, repo))
			return
		} else if err != nil {
			apiError(w, http.StatusInternalServerError, err.Error())
			return
		}
		status = http.StatusCreated
	case http.MethodDelete:
		user := req.URL.Query().Get("user")
		if user == "" {
			apiError(w, http.StatusUnprocessableEntity, "name the user to stop sharing with: ?user=<username>")
			return
		}
		if err := r.state.unshare(repo, user); err != nil {
			apiError(w, http.StatusInternalServerError, err.Error())
			return
		}
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		apiError(w, http.StatusMethodNotAllowed, "shares are read with GET, added with POST and removed with DELETE")
		return
	}
	writeJSON(w, status, map[string]any{"repository": repo, "shared_with": r.state.shareList(repo)})
}
