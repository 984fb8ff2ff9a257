package rest

import (
	"bytes"
	"crypto/subtle"
	"encoding/base64"
	"image/png"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/forgehq/forge/refserver/store"
	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
)

// TOTP parameters: RFC 6238 defaults, as authenticator apps expect.
const (
	totpPeriod = 30
	// totpSkew accepts the codes of one step before and after the
	// current one, for clocks that drift.
	totpSkew = 1
	// maxBadCodes wrong codes sent with one pending login token revoke it.
	maxBadCodes = 5
)

// twofaSetup: POST /me/2fa/setup starts enrolment with a new secret.
func (a *API) twofaSetup(w http.ResponseWriter, r *http.Request, s *session) error {
	if s.user.TwoFA {
		return errConflict("two-factor authentication is already enabled; disable it first")
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: "forge", AccountName: s.user.Login, Period: totpPeriod,
		Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		return err
	}
	img, err := key.Image(256, 256)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return err
	}
	if err := a.st.BeginTwoFA(s.user.ID, key.Secret()); err != nil {
		return err
	}
	qr := base64.StdEncoding.EncodeToString(buf.Bytes())
	// Both image names: the specification's worked example says
	// qr_png_base64, its machine-readable description qr_base64.
	writeJSON(w, http.StatusOK, map[string]string{"secret": key.Secret(), "otpauth_url": key.URL(),
		"qr_png_base64": qr, "qr_base64": qr})
	return nil
}

func readCode(w http.ResponseWriter, r *http.Request) (string, error) {
	var in struct {
		Code *string `json:"code"`
	}
	if err := decode(w, r, &in); err != nil {
		return "", err
	}
	if err := required("code", in.Code); err != nil {
		return "", err
	}
	return strings.ReplaceAll(strings.TrimSpace(*in.Code), " ", ""), nil
}

// checkCode returns the time step whose code is code, or -1. Wrong codes
// count against the account across all its tokens, logins and the confirm,
// verify and disable endpoints: after the lockout threshold within its
// window, every code of the account is refused with 429 for the lockout
// duration, so a script cannot guess its way through fresh logins.
func (a *API) checkCode(u store.User, secret, code string) (int64, error) {
	step := int64(-1)
	now := a.cfg.Now()
	wait, _ := a.codes.attempt(strconv.FormatInt(u.ID, 10), now, func() bool {
		step = matchStep(secret, code, now)
		return step >= 0
	})
	if wait > 0 {
		return -1, errTooMany(wait, "too many invalid two-factor codes for "+u.Login)
	}
	return step, nil
}

// matchStep returns the time step whose code is code at now, or -1.
func matchStep(secret, code string, at time.Time) int64 {
	if len(code) != 6 || strings.Trim(code, "0123456789") != "" {
		return -1
	}
	now := at.Unix() / totpPeriod
	for step := now - totpSkew; step <= now+totpSkew; step++ {
		want, err := totp.GenerateCodeCustom(secret, time.Unix(step*totpPeriod, 0), totp.ValidateOpts{
			Period: totpPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
		if err == nil && subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			return step
		}
	}
	return -1
}

// twofaConfirm: POST /me/2fa/confirm {code} enables 2FA.
func (a *API) twofaConfirm(w http.ResponseWriter, r *http.Request, s *session) error {
	code, err := readCode(w, r)
	if err != nil {
		return err
	}
	if s.user.TwoFA {
		return errConflict("two-factor authentication is already enabled")
	}
	if s.user.PendingSecret == "" {
		return errConflict("no two-factor enrolment in progress: call POST %s/me/2fa/setup first", Prefix)
	}
	step, err := a.checkCode(s.user, s.user.PendingSecret, code)
	if err != nil {
		return err
	}
	if step < 0 {
		return errInvalid("invalid two-factor code")
	}
	secret := s.user.PendingSecret
	if err := a.st.ChangeTwoFA(s.user.ID, step, secret, s.token.ID); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, okBody)
	return nil
}

// twofaVerify: POST /me/2fa/verify {code} completes a 2FA login: the
// token it is sent with becomes a full token. Wrong codes answer 401;
// after maxBadCodes of them the token is revoked.
func (a *API) twofaVerify(w http.ResponseWriter, r *http.Request, s *session) error {
	code, err := readCode(w, r)
	if err != nil {
		return err
	}
	if !s.user.TwoFA {
		return errInvalid("two-factor authentication is not enabled for %s", s.user.Login)
	}
	step, err := a.checkCode(s.user, s.user.Secret, code)
	if err != nil {
		return err
	}
	if step < 0 && !s.token.Pending {
		return errInvalid("invalid two-factor code")
	}
	if step < 0 {
		revoked, err := a.st.CountBadCode(s.token.ID, maxBadCodes)
		if err != nil {
			return err
		}
		if revoked {
			return errUnauthorized("too many invalid two-factor codes: log in again")
		}
		return errUnauthorized("invalid two-factor code")
	}
	if err := a.st.UseStep(s.user.ID, step); err != nil {
		if err == store.ErrReplay {
			return errUnauthorized("%s", err.Error())
		}
		return err
	}
	if err := a.st.VerifyToken(s.token.ID); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, okBody)
	return nil
}

// twofaDisable: POST /me/2fa/disable {code}.
func (a *API) twofaDisable(w http.ResponseWriter, r *http.Request, s *session) error {
	code, err := readCode(w, r)
	if err != nil {
		return err
	}
	if !s.user.TwoFA {
		return errConflict("two-factor authentication is not enabled")
	}
	step, err := a.checkCode(s.user, s.user.Secret, code)
	if err != nil {
		return err
	}
	if step < 0 {
		return errInvalid("invalid two-factor code")
	}
	if err := a.st.ChangeTwoFA(s.user.ID, step, "", s.token.ID); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, okBody)
	return nil
}
