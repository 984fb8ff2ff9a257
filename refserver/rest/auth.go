package rest

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

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
	method, path, _ := strings.Cut(pattern, " ")
	a.mux.HandleFunc(method+" "+Prefix+path, func(w http.ResponseWriter, r *http.Request) {
		s, err := a.authenticate(r)
		if err == nil && s.token.Pending && !pendingOK {
			err = errUnauthorized("two-factor verification required")
		}
		if err == nil {
			err = h(w, r, s)
		}
		if err != nil {
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
		return nil, errUnauthorized("bad credentials: the token is unknown or was revoked; log in again")
	}
	return &session{user: u, token: tok}, nil
}

// failures tracks failed logins of one login name.
type failures struct {
	count  int
	first  time.Time
	locked time.Time // locked until then
}

// lockedFor reports how long login stays locked out.
func (a *API) lockedFor(login string, now time.Time) time.Duration {
	a.lockMu.Lock()
	defer a.lockMu.Unlock()
	f := a.lockout[login]
	if f == nil || !now.Before(f.locked) {
		return 0
	}
	return f.locked.Sub(now)
}

func (a *API) recordFailure(login string, now time.Time) {
	a.lockMu.Lock()
	defer a.lockMu.Unlock()
	f := a.lockout[login]
	if f == nil || now.Sub(f.first) > a.cfg.LockoutWindow {
		if len(a.lockout) >= maxTracked {
			a.forgetStale(now)
		}
		f = &failures{first: now}
		a.lockout[login] = f
	}
	f.count++
	if f.count >= a.cfg.LockoutThreshold {
		f.locked = now.Add(a.cfg.LockoutDuration)
		f.count, f.first = 0, now
	}
}

// maxTracked bounds the login names with failures kept in memory: past it,
// entries whose window and lock have both passed are dropped, so a flood
// of made-up names cannot grow the map without end.
const maxTracked = 10000

func (a *API) forgetStale(now time.Time) {
	for name, f := range a.lockout {
		if now.Sub(f.first) > a.cfg.LockoutWindow && !now.Before(f.locked) {
			delete(a.lockout, name)
		}
	}
}

func (a *API) clearFailures(login string) {
	a.lockMu.Lock()
	defer a.lockMu.Unlock()
	delete(a.lockout, login)
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
func (a *API) login(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Username *string `json:"username"`
		Password *string `json:"password"`
	}
	if err := decode(w, r, &in); err != nil {
		writeError(w, err)
		return
	}
	if err := required("username", in.Username, "password", in.Password); err != nil {
		writeError(w, err)
		return
	}
	name := strings.ToLower(strings.TrimSpace(*in.Username))
	now := a.cfg.Now()
	if wait := a.lockedFor(name, now); wait > 0 {
		mins := int(wait.Round(time.Minute) / time.Minute)
		w.Header().Set("Retry-After", strconv.Itoa(int(wait.Seconds()+0.999)))
		writeJSON(w, http.StatusTooManyRequests, errorBody{fmt.Sprintf(
			"too many failed logins for %q: try again in %d minute(s)", name, max(1, mins))})
		return
	}
	u, found := a.st.UserByLogin(name)
	hash := dummyHash()
	if found {
		hash = u.PasswordHash
	}
	if !store.PasswordMatches(hash, *in.Password) || !found {
		a.recordFailure(name, now)
		writeError(w, errUnauthorized("incorrect username or password"))
		return
	}
	if u.Disabled {
		writeError(w, errForbidden("account %s is disabled; ask an administrator to enable it", u.Login))
		return
	}
	a.clearFailures(name)
	if u.ActivatedAt == nil {
		if err := a.st.MarkActivated(u.ID); err != nil {
			writeError(w, err)
			return
		}
	}
	tok, err := a.st.IssueToken(u.ID, u.TwoFA)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, loginResponse{Token: tok, User: a.userView(r, u), TwoFARequired: u.TwoFA})
}

// logout: POST /auth/logout revokes the token it is sent with.
func (a *API) logout(w http.ResponseWriter, r *http.Request, s *session) error {
	if err := a.st.RevokeToken(s.token.ID); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, okBody)
	return nil
}
