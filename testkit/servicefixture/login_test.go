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
		// verify hands out a new token and retires the login's.
		"verify gives a new token": {TwoFA403: true, VerifyNewToken: true},
		// 2FA said only by a 401 about MFA, at /me/state or at first use.
		"401 MFA":               {TwoFA403: true, TwoFAStatus: 401, TwoFAMessage: "MFA verification required"},
		"401 MFA, no /me/state": {TwoFA403: true, TwoFAStatus: 401, TwoFAMessage: "MFA verification required", NoMeState: true},
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

// TestRefusedBy403: a service refusing a bogus or revoked token, and a bad
// agent key, with 403 "invalid or expired token": forge exits 4 naming
// the fix, as for a 401; a 403 about permissions stays exit 1.
func TestRefusedBy403(t *testing.T) {
	s, h := against(t, servicefixture.Options{Refuse403: true, BigFiles: servicefixture.EmptyContent})
	h.Env["FORGE_TOKEN"] = "revoked-token"
	for _, args := range [][]string{{"issue", "list"}, {"run", "view", "2"}} {
		r := h.Run(clitest.Run{}, args...)
		if r.Code != 4 || !strings.Contains(r.Err, "forge auth login") {
			t.Errorf("forge %s with a refused token: exit %d, want 4 naming forge auth login\n%s", strings.Join(args, " "), r.Code, r.Output())
		}
	}
	h.Env["FORGE_TOKEN"] = s.Token
	h.Env["AGENT_URL"], h.Env["AGENT_API_KEY"] = s.URL, "agk_revokedkey0123456789"
	for _, args := range [][]string{{"run", "explain", "2"}, {"chat", "usage"}, {"chat", "-m", "hello"}} {
		r := h.Run(clitest.Run{}, args...)
		if r.Code != 4 || !strings.Contains(r.Err, "AGENT_API_KEY") {
			t.Errorf("forge %s with a refused agent key: exit %d, want 4 naming AGENT_API_KEY\n%s", strings.Join(args, " "), r.Code, r.Output())
		}
	}
	h.Env["AGENT_API_KEY"] = servicefixture.AgentKey
	if r := h.Run(clitest.Run{}, "chat", "usage"); r.Code != 0 {
		t.Errorf("chat usage with the right key: exit %d\n%s", r.Code, r.Output())
	}
	if r := h.Run(clitest.Run{}, "repo", "contents", "denied.txt"); r.Code != 1 {
		t.Errorf("a 403 about permissions: exit %d, want 1\n%s", r.Code, r.Output())
	}
}
