package rest

import (
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/forgehq/forge/refserver/store"
)

// session is the authenticated caller of a request.
type session struct {
	user  store.User
	token store.Token
}

type handlerFunc func(w http.ResponseWriter, r *http.Request, s *session) error

// handle mounts an authenticated route; a token still waiting for its
// two-factor code is refused.
func (a *API) handle(pattern string, h handlerFunc) { a.mount(pattern, h, false) }

// handlePending mounts a route that a token waiting for its two-factor
// code may call (only /me/2fa/verify).
func (a *API) handlePending(pattern string, h handlerFunc) { a.mount(pattern, h, true) }

func (a *API) mount(pattern string, h handlerFunc, pendingOK bool) {
	a.handleAnonymous(pattern, func(w http.ResponseWriter, r *http.Request) error {
		s, err := a.authenticate(r)
		if err == nil && s.token.Pending && !pendingOK {
			err = errUnauthorized("two-factor verification required")
		}
		if err != nil {
			return err
		}
		return h(w, r, s)
	})
}

// handleAnonymous mounts a route that takes no token (POST /auth/login),
// and is where every handler's error goes to writeError.
func (a *API) handleAnonymous(pattern string, h func(http.ResponseWriter, *http.Request) error) {
	method, path, _ := strings.Cut(pattern, " ")
	a.mux.HandleFunc(method+" "+Prefix+path, func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			writeError(w, err)
		}
	})
}

// authenticate reads "Authorization: token T" (or "Bearer T").
func (a *API) authenticate(r *http.Request) (*session, error) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return nil, errUnauthorized("authentication required: send the header Authorization: token <TOKEN>; get a token from POST %s/auth/login", Prefix)
	}
	scheme, raw, _ := strings.Cut(h, " ")
	if !strings.EqualFold(scheme, "token") && !strings.EqualFold(scheme, "bearer") || strings.TrimSpace(raw) == "" {
		return nil, errUnauthorized("malformed Authorization header: want \"token <TOKEN>\"")
	}
	u, tok, ok := a.st.Authenticate(strings.TrimSpace(raw))
	if !ok {
		if a.cfg.UnknownToken != "" {
			// It says what happened; a client adds its own way to log in.
			return nil, errUnauthorized("%s", a.unknownToken())
		}
		return nil, errUnauthorized("%s; log in again", a.unknownToken())
	}
	return &session{user: u, token: tok}, nil
}

// unknownToken says why a token is refused that the server does not know
// (Config.UnknownToken).
func (a *API) unknownToken() string {
	if a.cfg.UnknownToken != "" {
		return "bad credentials: the token is unknown or was revoked; " + a.cfg.UnknownToken
	}
	return "bad credentials: the token is unknown or was revoked"
}

// dummyHash is compared against when the login is unknown, so a wrong
// login costs as long as a wrong password.
var dummyHash = sync.OnceValue(func() []byte {
	h, _ := store.HashPassword("not a password", 6)
	return h
})

type loginResponse struct {
	Token         string   `json:"token"`
	User          userJSON `json:"user"`
	TwoFARequired bool     `json:"twofa_required"`
}

// login: POST /auth/login {username, password}.
func (a *API) login(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Username *string `json:"username"`
		Password *string `json:"password"`
	}
	if err := decode(w, r, &in); err != nil {
		return err
	}
	if err := required("username", in.Username, "password", in.Password); err != nil {
		return err
	}
	name := strings.ToLower(strings.TrimSpace(*in.Username))
	now := a.cfg.Now()
	u, found := a.st.UserByLogin(name)
	hash := dummyHash()
	if found {
		hash = u.PasswordHash
	}
	wait, ok := a.logins.attempt(name, now, func() bool {
		return store.PasswordMatches(hash, *in.Password) && found
	})
	if wait > 0 {
		return errTooMany(wait, fmt.Sprintf("too many failed logins for %q", name))
	}
	if !ok {
		return errUnauthorized("incorrect username or password")
	}
	if u.Disabled {
		return errForbidden("account %s is disabled; ask an administrator to enable it", u.Login)
	}
	if u.Temporary != "" {
		if spent, err := a.st.SpendTemporary(u.ID); err != nil || !spent {
			return errOr401(err, "the temporary password of %s logged in once already and works no more: log in with the password set since, or ask an administrator to invite the account again", u.Login)
		}
	}
	if u.ActivatedAt == nil {
		if err := a.st.MarkActivated(u.ID); err != nil {
			return err
		}
	}
	tok, err := a.st.IssueToken(u.ID, u.TwoFA)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, loginResponse{Token: tok, User: a.userView(r, u), TwoFARequired: u.TwoFA})
	return nil
}

// errOr401 is err, or when it is nil a 401 saying format.
func errOr401(err error, format string, args ...any) error {
	if err != nil {
		return err
	}
	return errUnauthorized(format, args...)
}

// logout: POST /auth/logout revokes the token it is sent with.
func (a *API) logout(w http.ResponseWriter, r *http.Request, s *session) error {
	if err := a.st.RevokeToken(s.token.ID); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, okBody)
	return nil
}
