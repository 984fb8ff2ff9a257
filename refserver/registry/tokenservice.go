package registry

import (
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
func (r *Registry) serveToken(w http.ResponseWriter, req *http.Request) error {
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
			return errorf(codeInvalidRequest, "the token request is not a form: %v", err)
		}
		if gt := req.PostForm.Get("grant_type"); gt != "password" {
			return errorf(codeUnsupportedGrantType, "only grant_type=password is supported")
		}
		user, pass = req.PostForm.Get("username"), req.PostForm.Get("password")
		ok = user != "" && pass != ""
		service, rawScopes = req.PostForm.Get("service"), req.PostForm["scope"]
	default:
		return unsupported("GET, POST", "tokens are requested with GET or POST")
	}
	unauthorized := basicChallenge("forge registry token service")
	if !ok {
		return unauthorized("the token service needs your account's username and password (HTTP basic credentials)")
	}
	var asked []scope
	for _, raw := range rawScopes {
		for _, s := range strings.Fields(raw) {
			sc, err := parseScope(s)
			if err != nil {
				return errorf(codeInvalidRequest, "%v", err)
			}
			asked = append(asked, sc)
		}
	}
	acct, err := r.accounts.check(req.Context(), user, pass)
	if err != nil {
		return loginFailure(err, unauthorized)
	}
	if service == "" {
		service = r.opts.Service
	}
	now := r.now()
	tok, err := r.signer.issue(r.opts.Issuer, service, acct, r.grant(acct, asked), r.opts.TokenTTL, now)
	if err != nil {
		return errorf(codeUnknown, "signing the token: %v", err)
	}
	writeJSON(w, http.StatusOK, tokenResponse{
		Token:       tok,
		AccessToken: tok,
		ExpiresIn:   int(r.opts.TokenTTL / time.Second),
		IssuedAt:    now.UTC().Format(time.RFC3339),
	})
	return nil
}
