package demo

import (
	"testing"
	"time"

	"github.com/forgehq/forge/internal/totp"
	"github.com/forgehq/forge/refserver"
)

// TestPasswordIsTheServers: the demo logs in with the password
// forge-server's --demo gives every demo account.
func TestPasswordIsTheServers(t *testing.T) {
	if password != refserver.DemoPassword {
		t.Errorf("the demo's password %q, the server's %q", password, refserver.DemoPassword)
	}
}

// TestCurrentCodeReadsTheSecretShown: the code is that of the secret
// `auth 2fa setup` showed for typing in, in colour or not, not of a QR
// code line; without a secret shown it is an error.
func TestCurrentCodeReadsTheSecretShown(t *testing.T) {
	const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
	now := time.Unix(1111111109, 0)
	want, err := totp.Code(secret, now)
	if err != nil {
		t.Fatal(err)
	}
	for _, printed := range []string{
		"████ ▄▄▄▄▄ █\n\nEnter this secret in your authenticator app:\n\n    JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP\n\n",
		"\nOr enter this secret by hand:\n\n    \x1b[1mJBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP\x1b[0m\n\n",
	} {
		if got, err := currentCode(printed, now); err != nil || got != want {
			t.Errorf("%q: %q, %v, want %q", printed, got, err, want)
		}
	}
	if _, err := currentCode("████ ▄▄▄▄▄ █\n", now); err == nil {
		t.Error("a code without a secret shown")
	}
}
