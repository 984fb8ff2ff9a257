package servicefixture_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/forgehq/forge/testkit/clitest"
	"github.com/forgehq/forge/testkit/servicefixture"
)

// TestHostileBytesNeverReachTheTerminal: a service that puts escape
// sequences (title, screen clear, clipboard, hyperlinks), C1 controls and
// bidi overrides in every string field of every record: no command that
// shows its records lets one through to a terminal, on stdout or stderr.
func TestHostileBytesNeverReachTheTerminal(t *testing.T) {
	for _, style := range []servicefixture.Style{servicefixture.GitHub, servicefixture.Alt} {
		s, h := against(t, servicefixture.Options{Hostile: true, Style: style, Issues: 3, Repos: 3, Users: 3})
		h.Env["AGENT_URL"], h.Env["AGENT_API_KEY"] = s.URL, "agk_hostilekey0123456789"
		for _, args := range [][]string{
			{"issue", "list", "--state", "all"}, {"issue", "view", "3"}, {"issue", "view", "3", "--comments"},
			{"repo", "list"}, {"repo", "view"}, {"repo", "commits"}, {"repo", "contents"}, {"repo", "contents", "README.md"}, {"repo", "collaborator", "list"},
			{"pr", "list", "--state", "all"}, {"pr", "view", "3"}, {"pr", "view", "2"},
			{"release", "list"},
			{"run", "list"}, {"run", "view", "2"}, {"run", "logs", "2"}, {"job", "logs", "21"},
			{"run", "explain", "2"}, {"run", "view", "2", "--explain"},
			{"admin", "user", "list"}, {"admin", "invite", "list"},
			{"auth", "status"}, {"account", "view"}, {"ssh-key", "list"},
			{"chat", "usage"}, {"chat", "-m", "hello"},
			{"api", "repos/alice/app"}, {"api", "--paginate", "repos/alice/app/issues"},
			{"issue", "create", "--title", "t", "--body", "b"}, {"issue", "comment", "3", "--body", "c"},
			{"issue", "close", "3"}, {"issue", "reopen", "3"},
			{"repo", "create", "repo002"}, {"admin", "invite", "create", "dave", "--email", "d@example.com"},
			{"run", "view", "2", "--log-failed"}, {"chat", "-m", "hello", "--with", "issue:3"}, {"run", "rerun", "2"},
		} {
			r := h.Run(clitest.Run{TTY: true, ErrTTY: true}, args...)
			if out := r.Out + r.Err; !strings.Contains(out, "^[") && !strings.Contains(out, `\u001b`) { // ESC as forge shows it
				t.Errorf("style %d: forge %s showed none of the service's text (exit %d):\n%s", style, strings.Join(args, " "), r.Code, r.Output())
			}
			for name, out := range map[string]string{"stdout": r.Out, "stderr": r.Err} {
				if c, bad := servicefixture.Unsafe(out); bad {
					t.Errorf("style %d: forge %s: %U reached the terminal on %s:\n%q", style, strings.Join(args, " "), c, name, out)
				}
			}
		}
	}
}

// TestHostileHeadersNeverReachTheTerminal: forge api -i prints the
// status line and headers, the service's text like any other. (net/http
// refuses C0 controls in a header; a C1 control as UTF-8 and a bidi
// override pass.)
func TestHostileHeadersNeverReachTheTerminal(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Note", "fine\u009b2J\u202e")
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"ok":true}`))
	}))
	defer srv.Close()
	h := clitest.Against(t, srv.URL+"/api/v2", "some-token-value")
	r := h.Run(clitest.Run{TTY: true, ErrTTY: true}, "api", "-i", "repos/alice/app")
	if !strings.Contains(r.Out, "X-Note: fine<U+009B>2J<U+202E>") {
		t.Errorf("the header is not shown visibly (exit %d):\n%s", r.Code, r.Output())
	}
	if c, bad := servicefixture.Unsafe(r.Out); bad {
		t.Errorf("%U reached the terminal:\n%q", c, r.Out)
	}
}
