package registry

import (
	"errors"
	"net/http"
	"strings"
	"time"
)

// tokenResponse is the token endpoint's answer. token and access_token
// carry the same JWT: Docker's clients read the first, OAuth2 clients the
// second.
type tokenResponse struct {
	Token       string `json:"token"`
	AccessToken string `json:"access_token"`
	ExpiresIn   int    `json:"expires_in"`
	IssuedAt    string `json:"issued_at"`
}

// serveToken is the token service. GET takes HTTP basic credentials with
// ?service= and any number of ?scope= (each may hold several scopes
// separated by spaces); POST is the OAuth2 password grant with the same
// fields in a form. Refresh tokens are not issued.
func (r *Registry) serveToken(w http.ResponseWriter, req *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	var (
		user, pass, service string
		rawScopes           []string
		ok                  bool
	)
	switch req.Method {
	case http.MethodGet:
		user, pass, ok = req.BasicAuth()
		q := req.URL.Query()
		service, rawScopes = q.Get("service"), q["scope"]
	case http.MethodPost:
		if err := req.ParseForm(); err != nil {
			invalidTokenRequest(w, "the token request is not a form: "+err.Error())
			return
		}
		if gt := req.PostForm.Get("grant_type"); gt != "password" {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type", "error_description": "only grant_type=password is supported"})
			return
		}
		user, pass = req.PostForm.Get("username"), req.PostForm.Get("password")
		ok = user != "" && pass != ""
		service, rawScopes = req.PostForm.Get("service"), req.PostForm["scope"]
	default:
		w.Header().Set("Allow", "GET, POST")
		regError(w, codeUnsupported, "tokens are requested with GET or POST")
		return
	}
	if !ok {
		w.Header().Set("WWW-Authenticate", `Basic realm="forge registry token service"`)
		regError(w, codeUnauthorized, "the token service needs your account's username and password (HTTP basic credentials)")
		return
	}
	var asked []scope
	for _, raw := range rawScopes {
		for _, s := range strings.Fields(raw) {
			sc, err := parseScope(s)
			if err != nil {
				invalidTokenRequest(w, err.Error())
				return
			}
			asked = append(asked, sc)
		}
	}
	acct, err := r.accounts.check(req.Context(), user, pass)
	switch {
	case errors.Is(err, errBadCredentials):
		w.Header().Set("WWW-Authenticate", `Basic realm="forge registry token service"`)
		regError(w, codeUnauthorized, "wrong username or password")
		return
	case errors.Is(err, errLockedOut):
		regError(w, codeTooManyRequests, err.Error())
		return
	case err != nil:
		regError(w, codeUnavailable, err.Error())
		return
	}
	if service == "" {
		service = r.opts.Service
	}
	now := r.now()
	tok, err := r.signer.issue(r.opts.Issuer, service, acct, r.grant(acct, asked), r.opts.TokenTTL, now)
	if err != nil {
		regError(w, codeUnknown, "signing the token: "+err.Error())
		return
	}
	writeJSON(w, http.StatusOK, tokenResponse{
		Token:       tok,
		AccessToken: tok,
		ExpiresIn:   int(r.opts.TokenTTL / time.Second),
		IssuedAt:    now.UTC().Format(time.RFC3339),
	})
}

// invalidTokenRequest answers a token request that cannot be read as
// OAuth2 does (400 invalid_request): the registry protocol's codes are for
// the registry.
func invalidTokenRequest(w http.ResponseWriter, msg string) {
	writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_request", "error_description": msg})
}
