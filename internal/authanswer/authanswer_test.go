package authanswer

import "testing"

func TestRefused(t *testing.T) {
	for _, c := range []struct {
		status int
		msg    string
		want   bool
	}{
		{401, "", true},
		{401, "two-factor verification required", true},
		{403, "invalid or expired token", true},
		{403, "Bad credentials", true},
		{403, "the API key was revoked", true},
		{403, "Requires authentication", true},
		{403, "two-factor verification required", false},
		{403, "MFA verification required: invalid token state", false},
		{403, "Resource not accessible by integration", false},
		{403, "invalid SSH key: keys of type dsa are not allowed", false},
		{403, "Unauthorized: you are not a collaborator", false},
		{403, "agent key expired", true},
		{403, "you must be an admin", false},
		{403, "forbidden", false},
		{403, "This API returns blobs up to 1 MB in size", false},
		{403, "API rate limit exceeded for 1.2.3.4", false},
		{404, "invalid token", false},
	} {
		if got := Refused(c.status, c.msg); got != c.want {
			t.Errorf("Refused(%d, %q) = %v, want %v", c.status, c.msg, got, c.want)
		}
	}
}

func TestTwoFactor(t *testing.T) {
	for msg, want := range map[string]bool{
		"two-factor verification required": true,
		"MFA verification required":        true,
		"2FA code needed":                  true,
		"invalid or expired token":         false,
		"bad credentials":                  false,
	} {
		if TwoFactor(msg) != want {
			t.Errorf("TwoFactor(%q) = %v", msg, !want)
		}
	}
}
