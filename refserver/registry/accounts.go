package registry

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// account is who the service's login says a user is. Admin means
// site_admin: the admin catalog lists every user's repositories, as only a
// site admin may see every user.
type account struct {
	Login string
	Admin bool
	// ID is the account's id, which a login name reused by a new account
	// does not share: what is granted to this account (a token, cached
	// credentials) is bound to it.
	ID string
}

var (
	errBadCredentials   = errors.New("wrong username or password")
	errLoginUnavailable = errors.New("the account service could not check the credentials")
	errLockedOut        = errors.New("too many failed logins")
)

// accounts checks a username and password the way the specification says:
// by an HTTP call to POST {base_url}/auth/login, through the configured
// base URL, never a function call into the REST implementation. Successful
// checks are remembered for a short while (by a hash of the credentials, not
// the password itself), because clients present credentials on every
// listing request and a login may cost a password hash on the other side;
// so a changed password keeps working on the registry for at most that
// long.
//
// An account with two-factor authentication passes with its password
// alone (the login answers 200 with twofa_required): the registry's
// clients have no way to send a TOTP code, and the service offers no
// other kind of token for them.
type accounts struct {
	baseURL func() string
	client  *http.Client
	ttl     time.Duration
	// current tells whether the account may still sign in, under the
	// same id; a cached check counts only while it does.
	current func(acct account) bool
	// id, when set, is the id of the account holding a login now
	// (Options.AccountID): it replaces the login answer's id, so that
	// what a check grants ends with the account's sessions.
	id func(login string) string

	mu    sync.Mutex
	cache map[[32]byte]cached
}

type cached struct {
	acct    account
	expires time.Time
}

func newAccounts(baseURL func() string, client *http.Client, ttl time.Duration, current func(account) bool, id func(string) string) *accounts {
	return &accounts{baseURL: baseURL, client: client, ttl: ttl, current: current, id: id, cache: map[[32]byte]cached{}}
}

func credentialKey(user, password string) [32]byte {
	h := sha256.New()
	h.Write([]byte("forge-registry\x00" + user + "\x00"))
	h.Write([]byte(password))
	var k [32]byte
	copy(k[:], h.Sum(nil))
	return k
}

// check returns the account for the credentials, errBadCredentials when the
// login refuses them, or an error wrapping errLoginUnavailable.
func (a *accounts) check(ctx context.Context, user, password string) (account, error) {
	if user == "" || password == "" {
		return account{}, errBadCredentials
	}
	key := credentialKey(user, password)
	now := time.Now()
	a.mu.Lock()
	c, ok := a.cache[key]
	a.mu.Unlock()
	if ok && now.Before(c.expires) && a.current(c.acct) {
		return c.acct, nil
	}
	if ok {
		// Expired, or the account changed since (disabled, deleted, its
		// sessions ended): the login decides again.
		a.mu.Lock()
		delete(a.cache, key)
		a.mu.Unlock()
	}
	var before string
	if a.id != nil {
		before = a.id(user)
	}
	acct, err := a.login(ctx, user, password)
	if err != nil {
		return account{}, err
	}
	if a.id != nil {
		// The id read before the login, if it still holds after it: a
		// change of password in between (the old one checked, the new id
		// read) grants nothing.
		if before == "" || a.id(acct.Login) != before {
			return account{}, errBadCredentials
		}
		acct.ID = before
	}
	if a.ttl > 0 {
		a.mu.Lock()
		for k, v := range a.cache {
			if now.After(v.expires) {
				delete(a.cache, k)
			}
		}
		a.cache[key] = cached{acct: acct, expires: now.Add(a.ttl)}
		a.mu.Unlock()
	}
	return acct, nil
}

// loginResponse is what POST /auth/login returns: a token (unused here)
// and the user.
type loginResponse struct {
	Token string `json:"token"`
	User  struct {
		ID      json.RawMessage `json:"id"`
		Login   string          `json:"login"`
		IsAdmin bool            `json:"is_admin"`
	} `json:"user"`
}

func (a *accounts) login(ctx context.Context, user, password string) (account, error) {
	base := strings.TrimRight(a.baseURL(), "/")
	if base == "" {
		return account{}, fmt.Errorf("%w: no base URL configured", errLoginUnavailable)
	}
	body, _ := json.Marshal(map[string]string{"username": user, "password": password})
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/auth/login", bytes.NewReader(body))
	if err != nil {
		return account{}, fmt.Errorf("%w: %v", errLoginUnavailable, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := a.client.Do(req)
	if err != nil {
		return account{}, fmt.Errorf("%w: %v", errLoginUnavailable, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return account{}, errBadCredentials
	case resp.StatusCode == http.StatusTooManyRequests:
		return account{}, fmt.Errorf("%w for %s: try again later", errLockedOut, user)
	case resp.StatusCode != http.StatusOK:
		return account{}, fmt.Errorf("%w: POST /auth/login answered %s", errLoginUnavailable, resp.Status)
	}
	var lr loginResponse
	if err := json.Unmarshal(data, &lr); err != nil {
		return account{}, fmt.Errorf("%w: POST /auth/login answered something that is not JSON", errLoginUnavailable)
	}
	// The login's token served only to read the role: it is revoked, so
	// that registry logins leave no REST token behind.
	defer a.logout(base, lr.Token)
	acct := account{Login: lr.User.Login, Admin: lr.User.IsAdmin, ID: strings.Trim(string(lr.User.ID), `"`)}
	if acct.Login == "" {
		acct.Login = user
	}
	if acct.Admin {
		// is_admin covers customer admins too; the role tells them apart.
		// Unknown (no token, as with two-factor authentication pending)
		// counts as not a site admin.
		role, ok := "", false
		if lr.Token != "" {
			role, ok = a.role(ctx, base, lr.Token)
		}
		acct.Admin = ok && role == "site_admin"
	}
	return acct, nil
}

// role reads the user's role from GET /me/state with the token the login
// returned; ok is false when it cannot.
func (a *accounts) role(ctx context.Context, base, token string) (string, bool) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/me/state", nil)
	if err != nil {
		return "", false
	}
	req.Header.Set("Authorization", "token "+token)
	req.Header.Set("Accept", "application/json")
	resp, err := a.client.Do(req)
	if err != nil {
		return "", false
	}
	defer resp.Body.Close()
	var st struct {
		Role string `json:"role"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&st) != nil || st.Role == "" {
		return "", false
	}
	return st.Role, true
}

// logout revokes a token the login issued, by POST /auth/logout (which the
// reference server offers; a service without it keeps its tokens, and
// nothing else can be done about them here).
func (a *accounts) logout(base, token string) {
	if token == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/auth/logout", nil)
	if err != nil {
		return
	}
	req.Header.Set("Authorization", "token "+token)
	req.Header.Set("Accept", "application/json")
	if resp, err := a.client.Do(req); err == nil {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
	}
}
