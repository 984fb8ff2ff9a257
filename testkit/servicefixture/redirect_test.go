package servicefixture_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/forgehq/forge/testkit/clitest"
	"github.com/forgehq/forge/testkit/servicefixture"
)

// TestRedirectToAnotherOriginSendsNothing: a service that answers the
// login and the password change with a 307 or 308 to another origin: forge
// refuses, says where it pointed, sends no body there, stores no token.
func TestRedirectToAnotherOriginSendsNothing(t *testing.T) {
	var reached atomic.Int32
	var body atomic.Value
	body.Store("")
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		b, _ := io.ReadAll(r.Body)
		body.Store(string(b))
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"token":"other-origins-token","user":{"login":"mallory"},"ok":true}`)
	}))
	t.Cleanup(other.Close)
	for _, status := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect, http.StatusFound} {
		fix := servicefixture.New(t, servicefixture.Options{})
		redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost {
				http.Redirect(w, r, other.URL+r.URL.Path, status)
				return
			}
			fix.Config.Handler.ServeHTTP(w, r)
		}))
		t.Cleanup(redirector.Close)
		h := clitest.Against(t, redirector.URL+"/api/v2", "")
		r := h.Run(clitest.Run{Stdin: servicefixture.Password + "\n"}, "auth", "login", "--username", "alice", "--password-stdin")
		if r.Code == 0 || !strings.Contains(r.Err, "redirected to "+other.URL) || strings.Contains(r.Err, "Logged in") {
			t.Errorf("%d on login: exit %d\n%s", status, r.Code, r.Output())
		}
		if st := h.Run(clitest.Run{}, "auth", "token"); strings.Contains(st.Out, "other-origins-token") {
			t.Errorf("%d on login: the other origin's token was stored", status)
		}
		h.Env["FORGE_TOKEN"] = fix.Token
		r = h.Run(clitest.Run{Stdin: "old-password-1234\nnew-password-5678\n"}, "account", "password", "--stdin")
		if r.Code == 0 || !strings.Contains(r.Err, "redirected to "+other.URL) {
			t.Errorf("%d on account password: exit %d\n%s", status, r.Code, r.Output())
		}
	}
	if n := reached.Load(); n != 0 {
		t.Errorf("the other origin was sent %d requests (last body %q)", n, body.Load())
	}
}
