package servicefixture_test

import (
	"strings"
	"testing"

	"github.com/forgehq/forge/testkit/clitest"
	"github.com/forgehq/forge/testkit/servicefixture"
)

// TestTwoFactorBy403: a service whose pending token is refused with 403
// "two-factor verification required" until POST /me/2fa/verify, with no
// login field saying so, or with one forge did not know (mfa_required):
// auth login passes verify with the code given; a wrong code exits 4 and
// stores nothing.
func TestTwoFactorBy403(t *testing.T) {
	for name, o := range map[string]servicefixture.Options{
		"no field":               {TwoFA403: true},
		"mfa_required":           {TwoFA403: true, LoginFlag: "mfa_required"},
		"no field, no /me/state": {TwoFA403: true, NoMeState: true},
	} {
		t.Run(name, func(t *testing.T) {
			s, h := against(t, o)
			delete(h.Env, "FORGE_TOKEN")
			r := h.Run(clitest.Run{Stdin: servicefixture.Password + "\n"}, "auth", "login", "--username", "alice", "--password-stdin", "--code", "000000")
			if r.Code != 4 || s.Verified() != 0 {
				t.Errorf("a wrong code: exit %d, %d verified, want 4 and 0\n%s", r.Code, s.Verified(), r.Output())
			}
			if st := h.Run(clitest.Run{}, "auth", "status"); strings.Contains(st.Out+st.Err, "pending-token") {
				t.Errorf("a failed login stored its token:\n%s", st.Output())
			}
			r = h.Run(clitest.Run{Stdin: servicefixture.Password + "\n"}, "auth", "login", "--username", "alice", "--password-stdin", "--code", servicefixture.Code)
			if r.Code != 0 || s.Verified() != 1 {
				t.Fatalf("login: exit %d, %d verified\n%s", r.Code, s.Verified(), r.Output())
			}
			r = h.Run(clitest.Run{}, "issue", "list", "-L", "1")
			if r.Code != 0 || !strings.Contains(r.Out, "issue 120") {
				t.Errorf("the stored token does not work: exit %d\n%s", r.Code, r.Output())
			}
		})
	}
}
