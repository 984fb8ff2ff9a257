package rest

import (
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/refserver/store"
)

// newGitTestAPI is newTestAPI with alice/app, a repository with git data
// (alice/pub and alice/priv have none) that bob may read, and pushes
// spooled at most spool bytes at once.
func newGitTestAPI(t *testing.T, spool int64) *testAPI {
	t.Helper()
	ta := newTestAPIWith(t, func(c *Config) { c.PushSpool = spool })
	if a := ta.do(t, "alice", "POST", "/repos", `{"name":"app","auto_init":true}`); a.status != http.StatusCreated {
		t.Fatalf("creating alice/app: %d %s", a.status, a.body)
	}
	app, _ := ta.st.RepoByName("alice", "app")
	bob, _ := ta.st.UserByLogin("bob")
	if _, err := ta.st.SetCollaborator(app.ID, bob, store.PermRead); err != nil {
		t.Fatal(err)
	}
	return ta
}

// gitDo sends a request to git's smart HTTP as git does, with user's
// token as the basic auth password (user "" sends none; "unknown" a
// token the server does not know).
func (ta *testAPI) gitDo(t *testing.T, user, method, path string, body []byte, gz bool) answer {
	t.Helper()
	req, err := http.NewRequest(method, ta.origin+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	switch user {
	case "":
	case "unknown":
		req.SetBasicAuth("x", "fgt_"+strings.Repeat("x", 40))
	default:
		req.SetBasicAuth("x", ta.tokens[user])
	}
	if gz {
		req.Header.Set("Content-Encoding", "gzip")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, resp.Header, data}
}

// pkt is one pkt-line holding s.
func pkt(s string) string { return fmt.Sprintf("%04x%s", len(s)+4, s) }

// TestGitErrors: every way a request to git's smart HTTP fails, over
// HTTP: the status statusOf gives its error and its message as plain
// text (which git shows), WWW-Authenticate on every 401 and Retry-After
// on a 503.
func TestGitErrors(t *testing.T) {
	t.Parallel()
	ta := newGitTestAPI(t, 3<<20)
	pending, err := ta.st.IssueToken(1, true)
	if err != nil {
		t.Fatal(err)
	}
	ta.tokens["pending"] = pending
	var bomb bytes.Buffer
	z, _ := gzip.NewWriterLevel(&bomb, gzip.BestCompression)
	z.Write(make([]byte, 32<<20))
	z.Close()
	zero := strings.Repeat("0", 40)
	boundary := strings.Repeat("1", 40)
	shallowPush := pkt("shallow "+boundary+"\n") + pkt(zero+" "+boundary+" refs/heads/x\x00report-status\n") + "0000" + "PACK\x00\x00\x00\x02\x00\x00\x00\x00"
	const refs, fetch, push = "/alice/app.git/info/refs?service=git-upload-pack", "/alice/app.git/git-upload-pack", "/alice/app.git/git-receive-pack"
	for _, c := range []struct {
		name, user, method, path string
		body                     []byte
		gz                       bool
		status                   int
		msg                      string // the whole body, or its start when it ends in "..."
	}{
		{"no credentials", "", "GET", refs, nil, false, 401, "authentication required: use a forge token as the password"},
		{"an unknown token", "unknown", "GET", refs, nil, false, 401, "bad credentials: the token is unknown or was revoked: use a forge token as the password"},
		{"a token waiting for its 2FA code", "pending", "GET", refs, nil, false, 401, "two-factor verification required"},
		{"a missing repository", "alice", "GET", "/alice/nope.git/info/refs?service=git-upload-pack", nil, false, 404, "repository alice/nope not found"},
		{"a private repository to a stranger", "dave", "GET", "/alice/priv.git/info/refs?service=git-upload-pack", nil, false, 404, "repository alice/priv not found"},
		{"a repository without git data", "alice", "GET", "/alice/pub.git/info/refs?service=git-upload-pack", nil, false, 404, "repository has no git data"},
		{"a push by a reader", "bob", "GET", "/alice/app.git/info/refs?service=git-receive-pack", nil, false, 403, "pushing needs write permission on alice/app"},
		{"a push by a reader, its pack", "bob", "POST", push, nil, false, 403, "pushing needs write permission on alice/app"},
		{"the dumb protocol", "alice", "GET", "/alice/app.git/info/refs", nil, false, 403, "only the smart HTTP protocol is served: use git 1.6.6 or later"},
		{"a POST of the refs", "alice", "POST", refs, nil, false, 405, "method not allowed"},
		{"a malformed fetch", "alice", "POST", fetch, []byte("garbage"), false, 400, "bad upload-pack request: ..."},
		{"a fetch whose gzip is not", "alice", "POST", fetch, []byte("garbage, not gzip"), true, 400, "gzip: invalid header"},
		{"a fetch by date", "alice", "POST", fetch, []byte(pkt("want "+boundary+"\n") + pkt("deepen-since 1\n") + "0000"), false, 400,
			"only --depth N is supported for shallow fetches, not --shallow-since or --shallow-exclude"},
		{"a malformed push", "alice", "POST", push, []byte("garbage"), false, 400, `malformed receive-pack request: bad pkt-line length "garb"`},
		{"a push from a shallow clone", "alice", "POST", push, []byte(shallowPush), false, 400,
			"pushing from a shallow clone whose boundary commit " + boundary + " this repository lacks: run git fetch --unshallow first"},
		{"a gzip bomb", "alice", "POST", push, bomb.Bytes(), true, 413,
			"reading the push: the gzip-encoded push inflates to more than 10 times its size: send it without Content-Encoding"},
		{"a push over the pushes' spool", "alice", "POST", push, make([]byte, 4<<20), false, 503,
			"the server is receiving 3 MiB of pushes at once, its bound (--max-push-spool): push again in a moment"},
	} {
		a := ta.gitDo(t, c.user, c.method, c.path, c.body, c.gz)
		got := string(a.body)
		if prefix, ok := strings.CutSuffix(c.msg, "..."); ok {
			if a.status != c.status || !strings.HasPrefix(got, prefix) {
				t.Errorf("%s: %d %q, want %d %q", c.name, a.status, got, c.status, c.msg)
			}
		} else if a.status != c.status || got != c.msg+"\n" {
			t.Errorf("%s: %d %q, want %d %q", c.name, a.status, got, c.status, c.msg)
		}
		if ct := a.header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
			t.Errorf("%s: an error as %q", c.name, ct)
		}
		if h := a.header.Get("WWW-Authenticate"); (c.status == 401) != (h == `Basic realm="forge"`) {
			t.Errorf("%s: WWW-Authenticate %q", c.name, h)
		}
		if h := a.header.Get("Retry-After"); (c.status == 503) != (h == "10") {
			t.Errorf("%s: Retry-After %q", c.name, h)
		}
	}
}

// TestGitSpoolFailureIsTheServers: a push the server fails to spool (its
// temporary directory is gone) is a 500 naming the cause, not the file,
// and not the client's 400.
func TestGitSpoolFailureIsTheServers(t *testing.T) {
	ta := newGitTestAPI(t, DefaultPushSpool)
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "gone"))
	a := ta.gitDo(t, "alice", "POST", "/alice/app.git/git-receive-pack", make([]byte, 1<<20+1), false)
	if a.status != 500 || string(a.body) != "internal error: open: no such file or directory\n" {
		t.Errorf("a push spooled to a missing directory: %d %q", a.status, a.body)
	}
}

// gitClient runs the real git in dir, with nothing of the machine's
// configuration, and never prompting.
func gitClient(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0",
		"GIT_AUTHOR_NAME=A", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=A", "GIT_COMMITTER_EMAIL=a@example.com")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestGitErrorsToGit: the answers of TestGitErrors as the real git
// client meets them, and what it shows of them.
func TestGitErrorsToGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	t.Parallel()
	ta := newGitTestAPI(t, 3<<20)
	remote := func(user, repo string) string {
		u, _ := url.Parse(ta.origin + "/alice/" + repo + ".git")
		u.User = url.UserPassword("x", ta.tokens[user])
		if user == "unknown" {
			u.User = url.UserPassword("x", "fgt_"+strings.Repeat("x", 40))
		}
		return u.String()
	}
	work := t.TempDir()
	if out, err := gitClient(t, work, "clone", "-q", remote("bob", "app"), "app"); err != nil {
		t.Fatalf("bob's clone: %v\n%s", err, out)
	}
	dir := filepath.Join(work, "app")
	big := make([]byte, 4<<20)
	rand.Read(big)
	os.WriteFile(filepath.Join(dir, "big.bin"), big, 0o644)
	for _, args := range [][]string{{"add", "."}, {"commit", "-q", "-m", "big"}} {
		if out, err := gitClient(t, dir, args...); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	for _, c := range []struct {
		name string
		args []string
		says []string
	}{
		{"a clone of a missing repository", []string{"clone", remote("alice", "nope"), t.TempDir()}, []string{"remote: repository alice/nope not found"}},
		{"a clone of a private repository by a stranger", []string{"clone", remote("dave", "priv"), t.TempDir()}, []string{"remote: repository alice/priv not found"}},
		{"a clone with an unknown token", []string{"clone", remote("unknown", "app"), t.TempDir()}, []string{"remote: bad credentials: the token is unknown or was revoked", "Authentication failed"}},
		{"a push by a reader", []string{"-C", dir, "push", remote("bob", "app"), "HEAD:main"}, []string{"remote: pushing needs write permission on alice/app", "403"}},
		{"a push over the pushes' spool", []string{"-C", dir, "push", remote("alice", "app"), "HEAD:main"}, []string{"503"}},
	} {
		out, err := gitClient(t, work, c.args...)
		if err == nil {
			t.Errorf("%s: git succeeded\n%s", c.name, out)
		}
		for _, s := range c.says {
			if !strings.Contains(out, s) {
				t.Errorf("%s: git does not say %q:\n%s", c.name, s, out)
			}
		}
	}
}
