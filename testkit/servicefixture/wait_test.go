package servicefixture_test

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/forgehq/forge/testkit/clitest"
)

// silent accepts connections and never answers.
func silent(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() { close(done); l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() { <-done; c.Close() }()
		}
	}()
	return l.Addr().String()
}

// TestOneWaitRule: REST, agent and registry requests to a service that
// never answers all stop at FORGE_HTTP_TIMEOUT with the same sentence, no
// raw Go error, no https:// address that was never tried.
func TestOneWaitRule(t *testing.T) {
	addr := silent(t)
	h := clitest.Against(t, "http://"+addr+"/api/v2", "some-token-value")
	h.Env["FORGE_HTTP_TIMEOUT"] = "1"
	h.Env["AGENT_URL"], h.Env["AGENT_API_KEY"] = "http://"+addr, "agk_waitkey0123456789"
	h.Env["FORGE_REGISTRY_URL"], h.Env["FORGE_USERNAME"], h.Env["FORGE_PASSWORD"] = "http://"+addr, "alice", "registry-pass-123"
	const sentence = "no answer within 1s; the service is slow or stuck (FORGE_HTTP_TIMEOUT sets a longer wait)"
	for _, args := range [][]string{
		{"repo", "view", "alice/app"},
		{"chat", "usage"},
		{"chat", "-m", "hello"},
		{"image", "tags", addr + "/alice/app"},
	} {
		r := h.Run(clitest.Run{}, args...)
		if r.Code != 1 || !strings.Contains(r.Err, sentence) || strings.Contains(r.Err, "net/http") || strings.Contains(r.Err, "https://") || strings.Count(strings.TrimSpace(r.Err), "\n") > 0 {
			t.Errorf("forge %s: exit %d, stderr %q; want exit 1 and one line saying %q", strings.Join(args, " "), r.Code, r.Err, sentence)
		}
	}
}

// TestIssueCreateMayHaveOpened: an issue sent without an answer may have
// been opened: forge says so, and where to look, before it is sent again.
func TestIssueCreateMayHaveOpened(t *testing.T) {
	h := clitest.Against(t, "http://"+silent(t)+"/api/v2", "some-token-value")
	h.Env["FORGE_HTTP_TIMEOUT"] = "1"
	r := h.Run(clitest.Run{}, "issue", "create", "-R", "alice/app", "--title", "t", "--body", "b")
	if r.Code != 1 || !strings.Contains(r.Err, "no answer within 1s") || !strings.Contains(r.Err, "; the issue may have been opened all the same: look with `forge issue list -R alice/app` before creating it again") {
		t.Errorf("exit %d\n%s", r.Code, r.Err)
	}
}

// hangingUp reads each request whole, then closes the connection without
// an answer: the request reached the service, its answer was lost.
func hangingUp(t *testing.T) string {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Issue #3 reads as open, so `issue close 3 --comment` gets as
		// far as sending its comment.
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/issues/3") {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"number": 3, "title": "t", "state": "open"}`)
			return
		}
		io.Copy(io.Discard, r.Body)
		c, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			c.Close()
		}
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// TestIssueCreateMayHaveOpenedOnAHangUp: a connection that breaks after
// the issue was sent is no answer either: forge says the issue may have
// been opened, as after a timeout; and of a comment (issue comment,
// issue close --comment), that it may have been posted.
func TestIssueCreateMayHaveOpenedOnAHangUp(t *testing.T) {
	h := clitest.Against(t, hangingUp(t)+"/api/v2", "some-token-value")
	r := h.Run(clitest.Run{}, "issue", "create", "-R", "alice/app", "--title", "t", "--body", "b")
	if r.Code != 1 || !strings.Contains(r.Err, "; the issue may have been opened all the same: look with `forge issue list -R alice/app` before creating it again") {
		t.Errorf("exit %d\n%s", r.Code, r.Err)
	}
	r = h.Run(clitest.Run{}, "issue", "comment", "3", "-R", "alice/app", "--body", "b")
	if r.Code != 1 || !strings.Contains(r.Err, "; the comment may have been posted all the same: look with `forge issue view 3 -R alice/app --comments` before sending it again") {
		t.Errorf("issue comment: exit %d\n%s", r.Code, r.Err)
	}
	r = h.Run(clitest.Run{}, "issue", "close", "3", "-R", "alice/app", "--comment", "b")
	if r.Code != 1 || !strings.Contains(r.Err, "adding the comment (the issue is left open): ") || !strings.Contains(r.Err, "; the comment may have been posted all the same: look with `forge issue view 3 -R alice/app --comments` before sending it again") {
		t.Errorf("issue close --comment: exit %d\n%s", r.Code, r.Err)
	}
}

// TestProfileShowHidesPassword: profile show shows none of the registry
// password (it showed its last four characters).
func TestProfileShowHidesPassword(t *testing.T) {
	h := clitest.Against(t, "http://127.0.0.1:1/api/v2", "")
	h.Env["FORGE_USERNAME"], h.Env["FORGE_PASSWORD"] = "alice", "registry-secret-zq9x"
	r := h.Run(clitest.Run{}, "profile", "show")
	if r.Code != 0 || strings.Contains(r.Out, "zq9x") || !strings.Contains(r.Out, "registry_password: ****") {
		t.Errorf("profile show: exit %d\n%s", r.Code, r.Output())
	}
}

// stalling answers every request but the registry's ping with its
// headers and the start of a body, then sends nothing more until the test
// ends: a service stuck mid-answer.
func stalling(t *testing.T) string {
	hang := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v2/" {
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		w.Write([]byte(`{"tags": ["v1", `))
		w.(http.Flusher).Flush()
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(hang); srv.Close() })
	return strings.TrimPrefix(srv.URL, "http://")
}

// TestOneWaitRuleCoversBodies: the wait is for each part of an answer,
// not only its headers. A job's log (the REST client's streamed read), a
// reply without streaming (the agent API) and a tags list (the registry)
// from a service that stops mid-body end with the same sentence.
func TestOneWaitRuleCoversBodies(t *testing.T) {
	addr := stalling(t)
	h := clitest.Against(t, "http://"+addr+"/api/v2", "some-token-value")
	h.Env["FORGE_HTTP_TIMEOUT"] = "1"
	h.Env["AGENT_URL"], h.Env["AGENT_API_KEY"] = "http://"+addr, "agk_waitkey0123456789"
	h.Env["FORGE_REGISTRY_URL"], h.Env["FORGE_USERNAME"], h.Env["FORGE_PASSWORD"] = "http://"+addr, "alice", "registry-pass-123"
	const sentence = "no answer within 1s; the service is slow or stuck (FORGE_HTTP_TIMEOUT sets a longer wait)"
	for _, args := range [][]string{
		{"job", "logs", "21", "-R", "alice/app"},
		{"chat", "--no-stream", "-m", "hello"},
		{"image", "tags", addr + "/alice/app"},
	} {
		t.Run(args[0], func(t *testing.T) {
			r := h.Run(clitest.Run{}, args...)
			if r.Code != 1 || !strings.Contains(r.Err, sentence) || strings.Count(strings.TrimSpace(r.Err), "\n") > 0 {
				t.Errorf("forge %s: exit %d, stderr %q; want exit 1 and one line saying %q", strings.Join(args, " "), r.Code, r.Err, sentence)
			}
		})
	}
}
