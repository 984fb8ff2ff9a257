package servicefixture_test

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/forgehq/forge/internal/clitest"
	"github.com/forgehq/forge/internal/servicefixture"
)

// allowed are the escape sequences forge writes itself: colours (SGR,
// which a job log's lines keep too), erasing a line, and the carriage
// return of a redrawn line.
var allowed = regexp.MustCompile(`\x1b\[[0-9;]*[mK]|\r`)

// unsafe finds what must not reach a terminal: ESC (but in allowed) and
// the other C0 controls but newline and tab, DEL, C1 controls (as
// characters and as raw bytes) and bidi controls.
func unsafe(s string) (rune, bool) {
	s = allowed.ReplaceAllString(s, "")
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			if s[i] >= 0x80 && s[i] <= 0x9f {
				return rune(s[i]), true
			}
		case r < 0x20 && r != '\n' && r != '\t', r == 0x7f, r >= 0x80 && r <= 0x9f,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return r, true
		}
		i += n
	}
	return 0, false
}

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
		} {
			r := h.Run(clitest.Run{TTY: true, ErrTTY: true}, args...)
			if out := r.Out + r.Err; !strings.Contains(out, "^[") && !strings.Contains(out, `\u001b`) { // ESC as forge shows it
				t.Errorf("style %d: forge %s showed none of the service's text (exit %d):\n%s", style, strings.Join(args, " "), r.Code, r.Output())
			}
			for name, out := range map[string]string{"stdout": r.Out, "stderr": r.Err} {
				if c, bad := unsafe(out); bad {
					t.Errorf("style %d: forge %s: %U reached the terminal on %s:\n%q", style, strings.Join(args, " "), c, name, out)
				}
			}
		}
	}
}
