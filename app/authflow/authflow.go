// Package authflow holds the steps of logging in to the service — the
// password, the two-factor code when the account asks for one, the check
// that the new token works — and storing the token in a profile. `forge
// auth login` and the TUI's login form both go through it, so they accept,
// refuse and store alike.
package authflow

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/forgehq/forge/app/cmdutil"
	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/config"
)

// Attempt is a login whose password the service accepted: it holds the
// new token, which may work only once a two-factor code is verified.
// Nothing is stored until the caller stores it.
type Attempt struct {
	anon *client.Client
	c    *client.Client // with the new token
	// Token is the token the service issued.
	Token string
	// NeedsCode says the account has two-factor authentication on: the
	// token works only after Verify.
	NeedsCode bool
	me        *client.User // the token's user, when Start already asked
}

// Start sends the username and password to anon's service. The service
// refusing the login — wrong credentials, a disabled account, a lockout —
// is an AuthError (exit 4, forge help exit-codes) quoting it; only a
// failure to get an answer is another error (exit 1).
func Start(ctx context.Context, anon *client.Client, username, password string) (*Attempt, error) {
	res, err := anon.Account.Login(ctx, username, password)
	if err != nil {
		var apiErr *client.Error
		if errors.As(err, &apiErr) {
			switch apiErr.StatusCode {
			case http.StatusUnauthorized, http.StatusForbidden:
				return nil, &cmdcore.AuthError{Err: fmt.Errorf("login to %s failed: %s", anon.BaseURL(), Summary(err))}
			case http.StatusTooManyRequests:
				return nil, &cmdcore.AuthError{Err: fmt.Errorf("login failed: %w", err)}
			}
		}
		return nil, fmt.Errorf("login failed: %w", err)
	}
	a := &Attempt{anon: anon, c: anon.WithToken(res.Token), Token: res.Token}
	need, err := a.c.Account.NeedsTwoFactor(ctx, res)
	if err != nil {
		a.Abandon(ctx)
		return nil, fmt.Errorf("login failed: %w", err)
	}
	if !need {
		// Some services say so only when the token is first used (401 or
		// 403 about two-factor verification): ask now, and keep the answer
		// for Finish.
		me, err := a.c.Account.Me(ctx)
		switch {
		case err == nil:
			a.me = me
		case client.IsTwoFactorRequired(err):
			need = true
		}
	}
	a.NeedsCode = need
	return a, nil
}

// CheckToken checks a token made elsewhere (`forge auth login
// --with-token`) with GET /me on anon's service and says whose it is. The
// service refusing it (401, or a 403 saying the token is invalid) is an
// AuthError (exit 4), as a refused password is; only a failure to get an
// answer is another error. It stores nothing.
func CheckToken(ctx context.Context, anon *client.Client, token string) (*client.User, error) {
	me, err := anon.WithToken(token).Account.Me(ctx)
	if err == nil {
		return me, nil
	}
	var apiErr *client.Error
	switch {
	case client.IsTwoFactorRequired(err):
		return nil, cmdcore.AuthErrorf("the token works only after a two-factor code, which forge can send only in a login: log in with your password instead")
	case errors.As(err, &apiErr) && (apiErr.StatusCode == http.StatusUnauthorized || apiErr.CredentialsRefused()):
		// forge's sentence, not the service's: its advice ("log in
		// again") is not this command's fix.
		return nil, cmdcore.AuthErrorf("%s did not accept the token: it is unknown there, expired or revoked", anon.BaseURL())
	}
	return nil, fmt.Errorf("checking the token: %w", err)
}

// Verify sends a two-factor code, as NormalizeCode gives it. The
// service's refusal comes back as it is: withCode-style retry loops tell
// a wrong code from other failures with WrongCode, and CodeError words it.
// A service answering with a new token (and retiring the login's) makes
// it the attempt's Token, the one Finish checks and the caller stores.
func (a *Attempt) Verify(ctx context.Context, code string) error {
	tok, err := a.c.Account.VerifyTwoFactor(ctx, code)
	if err == nil && tok != "" && tok != a.Token {
		a.Token, a.c = tok, a.anon.WithToken(tok)
	}
	return err
}

// CodeError words a refused two-factor code: too many refused ones are
// the AuthError of CodesLocked, a wrong one an AuthError quoting the
// service; any other error is returned as it is.
func CodeError(err error) error {
	if locked := CodesLocked(err); locked != nil {
		return locked
	}
	if WrongCode(err) {
		return cmdcore.AuthErrorf("the two-factor code was not accepted: %s", Summary(err))
	}
	return err
}

// Finish checks the token works and says whose it is.
func (a *Attempt) Finish(ctx context.Context) (*client.User, error) {
	if a.me != nil && !a.NeedsCode {
		return a.me, nil
	}
	me, err := a.c.Account.Me(ctx)
	if err != nil {
		return nil, fmt.Errorf("login failed: the new token does not work: %w", err)
	}
	return me, nil
}

// Abandon revokes the token, best effort: a token that will never be
// stored should not stay valid (or half-valid) on the service.
func (a *Attempt) Abandon(ctx context.Context) {
	if ctx.Err() == nil {
		_, _ = Revoke(ctx, a.c)
	}
}

// Revocation is what the service said when asked to revoke a token.
type Revocation int

const (
	// Revoked: the service confirmed it (2xx).
	Revoked Revocation = iota
	// NoEndpoint: the service has no logout endpoint (404, 405; the spec
	// shows none); the token stays valid there until it expires.
	NoEndpoint
	// Unknown: the service no longer knew the token (401): revoked or
	// expired before.
	Unknown
)

// Revoke ends the session of c's token (POST /auth/logout) and says what
// the service answered. A service without the endpoint (404, 405) or that
// no longer knows the token (401) is no error, but no confirmation either;
// err is a service that did not answer or refused otherwise.
func Revoke(ctx context.Context, c *client.Client) (Revocation, error) {
	_, err := c.Post(ctx, "/auth/logout", nil, nil)
	switch {
	case err == nil:
		return Revoked, nil
	case client.HasStatus(err, http.StatusNotFound), client.HasStatus(err, http.StatusMethodNotAllowed):
		return NoEndpoint, nil
	case client.HasStatus(err, http.StatusUnauthorized):
		return Unknown, nil
	}
	return Revoked, err
}

// Store writes the token and user into profile, creating it (and making
// it current) on a fresh configuration. The token belongs to the base URL
// it came from, so the profile's base URL becomes that one; Store returns
// the base URL it replaced, if any. The file is written only here, after
// a fully successful login: a failed one leaves the stored token alone.
func Store(src cmdutil.DepsSource, profile, baseURL, token, user string, insecure bool) (replaced string, saved *config.File, err error) {
	saved, err = src.Deps().UpdateProfile(profile, insecure, func(p *config.Profile) error {
		if p.BaseURL != "" && p.BaseURL != baseURL {
			replaced = p.BaseURL
		}
		p.BaseURL, p.Token, p.User = baseURL, token, user
		return nil
	})
	return replaced, saved, err
}

// NormalizeCode accepts a TOTP code as apps show it ("123 456") and checks
// it is 6 to 8 digits.
func NormalizeCode(s string) (string, error) {
	c := strings.NewReplacer(" ", "", "-", "", "\t", "").Replace(strings.TrimSpace(s))
	if len(c) < 6 || len(c) > 8 || strings.Trim(c, "0123456789") != "" {
		return "", fmt.Errorf("%q is not a two-factor code: give the 6 digits your authenticator app shows", s)
	}
	return c, nil
}

// WrongCode reports whether the service refused a TOTP code (rather than
// failing otherwise). The spec does not show the status; the reference
// server answers 401 at login and 422 elsewhere, and 400 and 403 are
// plausible too.
func WrongCode(err error) bool {
	var apiErr *client.Error
	if !errors.As(err, &apiErr) {
		return false
	}
	switch apiErr.StatusCode {
	case http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden, http.StatusUnprocessableEntity:
		return true
	}
	return false
}

// CodesLocked is the AuthError for a service that refuses codes for a
// while after too many wrong ones (429), saying how long from its
// Retry-After; nil for any other error. The server's own message is not
// needed for that, and not trusted to say it.
func CodesLocked(err error) error {
	var apiErr *client.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusTooManyRequests {
		return nil
	}
	wait := "a while"
	if apiErr.RetryAfter > 0 {
		wait = apiErr.RetryAfter.Round(time.Second).String()
	}
	return cmdcore.AuthErrorf("too many wrong two-factor codes: the service refuses codes for this account for now; wait %s, then log in again", wait)
}

// Summary is the server's message of an API error, else the error.
func Summary(err error) string {
	var apiErr *client.Error
	if errors.As(err, &apiErr) && apiErr.Message != "" {
		return apiErr.Message
	}
	return err.Error()
}
