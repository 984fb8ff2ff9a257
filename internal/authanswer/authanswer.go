// Package authanswer reads what a service's refusal says about the
// credentials sent: refused (a wrong, expired or revoked token or key,
// which a new login fixes) or waiting for a two-factor code. The spec
// shows 401 for refused credentials; a service may answer 403 with a
// message saying so, and forge reads the message as it reads the 2FA one.
// The REST and agent clients both ask here.
package authanswer

import "strings"

// Refused reports whether an answer of status with message msg refuses
// the credentials themselves: any 401, and a 403 whose message says a
// token, an API or agent key, the session or the credentials are invalid,
// expired or revoked, or that authentication is needed — not a 403 about permissions, nor one about a
// two-factor code.
func Refused(status int, msg string) bool {
	switch {
	case status == 401:
		return true
	case status != 403 || TwoFactor(msg):
		return false
	}
	m := strings.ToLower(msg)
	if containsAny(m, "bad credentials", "invalid credentials", "authentication required", "requires authentication", "not authenticated", "unauthenticated") {
		return true
	}
	// Not a bare "key" (an SSH or deploy key refused is no login matter),
	// nor "unauthorized" (services say it of permissions too).
	subject := containsAny(m, "token", "api key", "api-key", "apikey", "agent key", "access key", "credential", "session")
	return subject && containsAny(m, "invalid", "expired", "revoked", "unknown", "not valid", "malformed", "no longer valid")
}

// TwoFactor recognises the service's "two-factor verification required"
// and its likely variants ("MFA verification required", "OTP needed").
func TwoFactor(msg string) bool {
	return containsAny(strings.ToLower(msg), "two-factor", "two factor", "2fa", "totp", "otp", "mfa", "multi-factor")
}

func containsAny(s string, words ...string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
