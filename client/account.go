package client

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/forgehq/forge/internal/authanswer"
)

// MinPasswordLength is the service's minimum for a new password.
const MinPasswordLength = 12

// User is an account (GET /me, GET /admin/users, the login's user).
type User struct {
	Raw
	ID        int64  `json:"id"`
	Login     string `json:"login"`
	Email     string `json:"email"`
	FullName  string `json:"full_name"`
	IsAdmin   bool   `json:"is_admin"`
	AvatarURL string `json:"avatar_url"`
	// Not in the spec's User; sent by the reference server (role) and in
	// admin listings (state: active, disabled, ...).
	Role  string `json:"role"`
	State string `json:"state"`
}

// Disabled reads whether the account is disabled from an admin
// listing's entry: its state (the reference server's enabled/disabled,
// and other services' active, blocked, suspended, deactivated), else a
// boolean disabled. known is false when the entry says neither.
func (u *User) Disabled() (disabled, known bool) {
	switch strings.ToLower(u.State) {
	case "disabled", "blocked", "suspended", "deactivated", "banned":
		return true, true
	case "enabled", "active":
		return false, true
	}
	var alt struct {
		Disabled *bool `json:"disabled"`
	}
	if decode(u.raw, &alt) == nil && alt.Disabled != nil {
		return *alt.Disabled, true
	}
	return false, false
}

// UserState is GET /me/state: the account's role and set-up progress.
type UserState struct {
	Raw
	Role         string `json:"role"` // user, customer_admin or site_admin
	TwoFAEnabled bool   `json:"twofa_enabled"`
	SSHKeyAdded  bool   `json:"ssh_key_added"`
	InvitedBy    string `json:"invited_by"`
	ActivatedAt  Time   `json:"activated_at"`
}

// LoginResult is the answer of POST /auth/login.
type LoginResult struct {
	Raw
	Token string `json:"token"`
	User  User   `json:"user"`
	// TwoFactorRequired is set when the answer says the token works only
	// after POST /me/2fa/verify. The spec does not show the sequence; the
	// reference server sends twofa_required, and the client also reads the
	// spellings other servers use (see Login).
	TwoFactorRequired bool `json:"-"`
}

// TwoFactorSetup is the answer of POST /me/2fa/setup.
type TwoFactorSetup struct {
	Raw
	Secret     string `json:"secret"`
	OTPAuthURL string `json:"otpauth_url"`
	// QRBase64 is the server's PNG of the QR code, base64, from
	// qr_png_base64 or qr_base64 (the spec names both).
	QRBase64 string `json:"-"`
}

// GroupedSecret is the secret in groups of four characters, for typing it
// into an authenticator app by hand.
func (s *TwoFactorSetup) GroupedSecret() string {
	secret := s.Secret
	var parts []string
	for len(secret) > 4 {
		parts = append(parts, secret[:4])
		secret = secret[4:]
	}
	return strings.Join(append(parts, secret), " ")
}

// Account is the "issuer:account" label of the otpauth:// URL, the name
// the authenticator app will show; "" when the URL has none.
func (s *TwoFactorSetup) Account() string {
	u, err := url.Parse(s.OTPAuthURL)
	if err != nil || u.Scheme != "otpauth" {
		return ""
	}
	return strings.TrimPrefix(u.Path, "/")
}

// QRPNG decodes the server's QR image. It accepts standard or URL-safe
// base64, with or without padding, and a data: URL prefix, and checks the
// result is a PNG.
func (s *TwoFactorSetup) QRPNG() ([]byte, error) {
	b64 := strings.TrimSpace(s.QRBase64)
	if b64 == "" {
		return nil, errors.New("the server sent no QR image (neither qr_png_base64 nor qr_base64)")
	}
	if i := strings.Index(b64, "base64,"); strings.HasPrefix(b64, "data:") && i >= 0 {
		b64 = b64[i+len("base64,"):]
	}
	b64 = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == ' ' || r == '\t' {
			return -1
		}
		return r
	}, b64)
	var data []byte
	var err error
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if data, err = enc.DecodeString(b64); err == nil {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("the server's QR image is not valid base64: %w", err)
	}
	if !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) {
		return nil, errors.New("the server's QR image is not a PNG")
	}
	return data, nil
}

// ProfileUpdate is the body of PATCH /me/profile; nil fields are left as
// they are.
type ProfileUpdate struct {
	FullName    *string `json:"full_name,omitempty"`
	Email       *string `json:"email,omitempty"`
	Location    *string `json:"location,omitempty"`
	Website     *string `json:"website,omitempty"`
	Description *string `json:"description,omitempty"`
}

// AccountService covers the caller's own account: login, profile, password
// and two-factor authentication.
type AccountService struct{ c *Client }

// Login exchanges a username and password for a token (POST /auth/login,
// sent without any token). Wrong credentials are an *Error with status 401.
//
// Tolerant of the unshown 2FA sequence: TwoFactorRequired is set from any
// top-level field naming two-factor authentication (twofa_required,
// two_factor_required, 2fa_required, requires_2fa, otp_required,
// mfa_required, ...) being true; the token is read from token or
// access_token.
// A caller should still ask NeedsTwoFactor, which also consults /me/state.
func (s *AccountService) Login(ctx context.Context, username, password string) (*LoginResult, error) {
	body := map[string]string{"username": username, "password": password}
	var raw []byte
	if _, err := s.c.do(ctx, http.MethodPost, "/auth/login", body, &raw, true); err != nil {
		return nil, err
	}
	res, err := decodeNew[LoginResult](raw)
	if err != nil {
		return nil, &decodeError{method: http.MethodPost, url: s.c.redact("/auth/login"), err: err}
	}
	var extra map[string]any
	_ = json.Unmarshal(raw, &extra)
	for k, v := range extra {
		if b, ok := v.(bool); ok && b && namesTwoFactor(k) {
			res.TwoFactorRequired = true
		}
	}
	if res.Token == "" {
		if t, ok := extra["access_token"].(string); ok {
			res.Token = t
		}
	}
	if res.Token == "" {
		return nil, fmt.Errorf("POST %s: the login answer carries no token", s.c.redact("/auth/login"))
	}
	return res, nil
}

// NeedsTwoFactor reports whether the token of a fresh login works only
// after POST /me/2fa/verify. It believes the login answer first; otherwise
// it asks GET /me/state with the new token: twofa_enabled, or a 401 that
// mentions two-factor verification, means yes. Any other answer of the
// service (a server without /me/state, say) means no: the caller's next
// request with the token will tell.
func (s *AccountService) NeedsTwoFactor(ctx context.Context, login *LoginResult) (bool, error) {
	if login.TwoFactorRequired {
		return true, nil
	}
	st, err := s.c.WithToken(login.Token).Account.State(ctx)
	var apiErr *Error
	switch {
	case err == nil:
		return st.TwoFAEnabled, nil
	case IsTwoFactorRequired(err):
		return true, nil
	case errors.As(err, &apiErr):
		return false, nil
	}
	return false, err
}

// namesTwoFactor reports whether a login answer's field name is about
// two-factor authentication.
func namesTwoFactor(key string) bool {
	k := strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(key))
	for _, w := range []string{"2fa", "twofa", "twofactor", "mfa", "otp", "totp"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// mentionsTwoFactor recognises the server's "two-factor verification
// required" and its likely variants.
func mentionsTwoFactor(msg string) bool { return authanswer.TwoFactor(msg) }

// IsTwoFactorRequired reports whether err is the service refusing a token
// that has not passed two-factor verification yet: a 401 (the reference
// server) or 403 whose message mentions two-factor verification.
func IsTwoFactorRequired(err error) bool {
	var apiErr *Error
	return errors.As(err, &apiErr) && (apiErr.StatusCode == http.StatusUnauthorized || apiErr.StatusCode == http.StatusForbidden) && mentionsTwoFactor(apiErr.Message)
}

// Me returns the caller's account (GET /me).
func (s *AccountService) Me(ctx context.Context) (*User, error) {
	return getOne[User](s.c, ctx, "/me")
}

// State returns the caller's role and set-up state (GET /me/state).
func (s *AccountService) State(ctx context.Context) (*UserState, error) {
	return getOne[UserState](s.c, ctx, "/me/state")
}

// UpdateProfile changes the fields set in p (PATCH /me/profile).
func (s *AccountService) UpdateProfile(ctx context.Context, p ProfileUpdate) error {
	_, err := s.c.Patch(ctx, "/me/profile", p, nil)
	return err
}

// ChangePassword sets a new password (POST /me/password). A new password
// shorter than MinPasswordLength is refused before any request.
//
// A service may revoke the account's tokens on a password change (the
// spec does not say; the reference server does, and answers with a fresh
// token for the caller). newToken is that token, or "" when the answer
// carries none.
func (s *AccountService) ChangePassword(ctx context.Context, oldPassword, newPassword string) (newToken string, err error) {
	if n := len([]rune(newPassword)); n < MinPasswordLength {
		return "", fmt.Errorf("the new password has %d characters; the service requires at least %d", n, MinPasswordLength)
	}
	body := map[string]string{"old_password": oldPassword, "new_password": newPassword}
	var out struct {
		Token string `json:"token"`
	}
	if _, err := s.c.Post(ctx, "/me/password", body, &out); err != nil {
		return "", err
	}
	return out.Token, nil
}

// SetupTwoFactor starts TOTP enrolment (POST /me/2fa/setup): the secret,
// the otpauth:// URL and the server's QR image.
func (s *AccountService) SetupTwoFactor(ctx context.Context) (*TwoFactorSetup, error) {
	var raw []byte
	if _, err := s.c.Post(ctx, "/me/2fa/setup", nil, &raw); err != nil {
		return nil, err
	}
	setup, err := decodeNew[TwoFactorSetup](raw)
	if err != nil {
		return nil, &decodeError{method: http.MethodPost, url: s.c.redact("/me/2fa/setup"), err: err}
	}
	var imgs struct {
		PNG  string `json:"qr_png_base64"`
		Any  string `json:"qr_base64"`
		Code string `json:"qr_code"`
	}
	_ = json.Unmarshal(raw, &imgs)
	for _, v := range []string{imgs.PNG, imgs.Any, imgs.Code} {
		if v != "" {
			setup.QRBase64 = v
			break
		}
	}
	return setup, nil
}

// ConfirmTwoFactor finishes enrolment with a code from the authenticator
// (POST /me/2fa/confirm).
func (s *AccountService) ConfirmTwoFactor(ctx context.Context, code string) error {
	_, err := s.c.Post(ctx, "/me/2fa/confirm", map[string]string{"code": code}, nil)
	return err
}

// VerifyTwoFactor completes a login of an account with 2FA on
// (POST /me/2fa/verify), making the login's token usable. A service may
// instead answer with a new token (token or access_token), retiring the
// login's: then token is that one, to use and store from now on ("" when
// the login's token is the one).
func (s *AccountService) VerifyTwoFactor(ctx context.Context, code string) (token string, err error) {
	resp, err := s.c.Post(ctx, "/me/2fa/verify", map[string]string{"code": code}, nil)
	if err != nil {
		return "", err
	}
	var v struct {
		Token       string `json:"token"`
		AccessToken string `json:"access_token"`
	}
	_ = json.Unmarshal(resp.Body, &v) // an answer without a token (or no JSON) keeps the login's
	return first(v.Token, v.AccessToken), nil
}

// DisableTwoFactor switches 2FA off (POST /me/2fa/disable); it needs a
// current code. already is true when the service answered 409 Conflict
// and GET /me/state, read back, says 2FA is off: the state asked for. A
// 409 while it is on, or when the state cannot be read, is the service's
// error.
func (s *AccountService) DisableTwoFactor(ctx context.Context, code string) (already bool, err error) {
	_, err = s.c.Post(ctx, "/me/2fa/disable", map[string]string{"code": code}, nil)
	if HasStatus(err, http.StatusConflict) {
		if st, serr := s.State(ctx); serr == nil && !st.TwoFAEnabled {
			return true, nil
		}
	}
	return false, err
}

// getOne GETs one record.
func getOne[T any](c *Client, ctx context.Context, path string) (*T, error) {
	var raw []byte
	if _, err := c.Get(ctx, path, &raw); err != nil {
		return nil, err
	}
	return decodeOne[T](c, http.MethodGet, path, raw)
}

// sendOne sends a request with a JSON body and decodes one record from the
// answer. An answer without a body gives a zero record.
func sendOne[T any](c *Client, ctx context.Context, method, path string, in any) (*T, error) {
	var raw []byte
	if _, err := c.Do(ctx, method, path, in, &raw); err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return new(T), nil
	}
	return decodeOne[T](c, method, path, raw)
}

func decodeOne[T any](c *Client, method, path string, raw []byte) (*T, error) {
	v, err := decodeNew[T](raw)
	if err != nil {
		return nil, &decodeError{method: method, url: c.redact(path), err: err}
	}
	return v, nil
}
