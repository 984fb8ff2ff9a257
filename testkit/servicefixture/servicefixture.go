// Package servicefixture is a small imitation of the hosting service for
// tests only: it keeps the spec but makes, one switch at a time, the other
// choices the spec leaves open (how lists page, which filters it honours,
// how the 2FA login is signalled, the field names of the records the spec
// does not show), and can be hostile (control and bidi characters in every
// string field). Tests drive forge's commands against it to prove that
// forge reads every such service right; the reference server (refserver)
// stays the one full implementation.
package servicefixture

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-containerregistry/pkg/registry"
)

// Paging is how the fixture pages a list.
type Paging int

const (
	// LinkAbsolute: GitHub's Link header, absolute targets, quoted rel,
	// page + per_page (default 30).
	LinkAbsolute Paging = iota
	// LinkRelative: Link with relative targets and a bare rel=next.
	LinkRelative
	// PagePerPage: page + per_page (default 30), no Link, no total.
	PagePerPage
	// PageLimit: page + limit (default 20, at most 50), X-Total-Count, no
	// Link (Gitea without its Link header).
	PageLimit
	// Cursor: an opaque cursor in Link rel=next, limit (default 20).
	Cursor
	// NoPaging: the whole list in one answer.
	NoPaging
	// FixedPages: pages of 20 whatever is asked, page numbers honoured,
	// no Link and no total.
	FixedPages
	// FirstPageOnly: the first 20 records whatever is asked (page, size
	// and cursor ignored), no Link and no total: forge cannot tell.
	FirstPageOnly
	// NotFoundPast: pages of 20 whatever is asked, no Link and no total,
	// and 404 for a page past the last (a list ending on a full page
	// has no empty page to say so).
	NotFoundPast
	// LinkNotFound: Link rel="next" on every page but the last, whose
	// link names a page answering 404: forge cannot tell.
	LinkNotFound
)

// Style names the records' fields.
type Style int

const (
	// GitHub's names, as the reference server uses.
	GitHub Style = iota
	// Alt: Gitea's and GitLab's names (title, commit_sha, trigger_user,
	// author, source_branch, is_prerelease, an invite's status and
	// inviter), jobs with only a status and no name.
	Alt
)

// BigFiles is how the fixture answers the contents endpoint for a file
// past its inline limit (GitHub's 1 MB): alice/app then holds big.bin
// and big.txt (BigFile), and denied.txt, which every read refuses (403).
// The raw read answers only GitHub's media type,
// application/vnd.github.raw, in Accept (but NullContent's).
type BigFiles int

const (
	// NoBigFiles: alice/app has no big file.
	NoBigFiles BigFiles = iota
	// EmptyContent: GitHub's file object for a file of 1 to 100 MB with
	// the object media type: content "" and encoding "none", its size
	// set. The raw answer has a Content-Length.
	EmptyContent
	// Refused: GitHub's 403 for the default media type ("This API
	// returns blobs up to 1 MB in size…"). The raw answer is chunked,
	// without a Content-Length.
	Refused
	// NullContent: Gitea's way: the file object with content and
	// encoding null, the raw media type ignored (the same JSON again),
	// the bytes at GET .../raw/PATH.
	NullContent
)

// BigFile is the content of a big file of the fixture (BigFiles):
// big.bin, 3 MiB of every byte value; big.txt, 3 MiB of lines of text
// with a screen clear past the first MiB.
func BigFile(name string) []byte {
	const size = 3 << 20
	b := make([]byte, 0, size+64)
	if name == "big.bin" {
		for i := 0; len(b) < size; i++ {
			b = append(b, byte(i*7))
		}
		return b
	}
	for i := 0; len(b) < size; i++ {
		b = fmt.Appendf(b, "line %d of a big text file\n", i)
		if i == 50000 {
			b = append(b, "\x1b[2Jcleared\n"...)
		}
	}
	return b[:size]
}

// Options are the fixture's choices.
type Options struct {
	Paging Paging
	// IgnoreFilters answers every list unfiltered (state, status, ...).
	IgnoreFilters bool
	Style         Style
	// TwoFA403: a login of a user with 2FA gives a token refused with
	// 403 {"error": "two-factor verification required"} until POST
	// /me/2fa/verify. LoginFlag, when set, is the login answer's field
	// saying so (true), e.g. "mfa_required"; "" sends none.
	TwoFA403  bool
	LoginFlag string
	// TwoFAStatus and TwoFAMessage, when set, replace the 403 and its
	// words (e.g. 401 "MFA verification required").
	TwoFAStatus  int
	TwoFAMessage string
	// VerifyNewToken: verify answers {"ok": true, "token": NEW} and
	// retires the login's token (refused from then on).
	VerifyNewToken bool
	// Refuse403 refuses an unknown token, and an agent key other than
	// AgentKey, with 403 {"error": "invalid or expired token"} (else: an
	// unknown token 401, any agent key taken).
	Refuse403 bool
	// NoMeState answers GET /me/state with 404, before any token check
	// (a service without it): a pending token shows only when used.
	NoMeState bool
	// Hostile appends escape, C1 and bidi characters to every string
	// field of every record.
	Hostile bool
	// BigFiles adds files past the inline limit to alice/app, answered
	// as it says.
	BigFiles BigFiles
	// CommentField is the field a new comment's text is read from
	// ("" for "body"); a comment without it is refused with GitHub's
	// 422 "Validation Failed", the reason only in its errors array.
	CommentField string
	// StoreEmptyComments stores a comment without its text field, empty
	// (answered with "body": ""), instead of refusing it.
	StoreEmptyComments bool
	// ConflictWhenHeld answers 409 to a change to a state that already
	// holds: disabling user002 (disabled), enabling another account,
	// turning alice's two-factor authentication off (it is off).
	// Without it those answer 200 {"ok": true}.
	ConflictWhenHeld bool
	// ConflictOther answers every disable, enable and two-factor
	// disable with 409 and this error: a conflict of another kind, the
	// state asked for not holding (two-factor authentication is on).
	ConflictOther string
	// RateLimited answers every REST request with GitHub's 403 for a
	// used-up rate limit: X-RateLimit-Remaining 0, the reset (Unix
	// seconds) 15 minutes on, no Retry-After.
	RateLimited bool
	// LogTokens puts the service's own CI token and key forms in the job
	// logs (LogToken, LogKey), beside an image digest (LogDigest).
	LogTokens bool
	// Registry: how the registry's listings answer.
	Registry Registry
	// IssuesCoverPulls numbers issues and pull requests together, as
	// GitHub and Gitea do: reading issue 1, 2 or 3 answers that pull
	// request, marked with a pull_request object.
	IssuesCoverPulls bool
	// Issues, Repos, Users: how many of each (defaults 120, 45, 55).
	Issues, Repos, Users int
	// Conclusions, when set, replace the three runs of alice/app: run n
	// (from 1) concluded with the n-th, in the service's own words
	// (GitHub's timed_out, neutral, skipped, startup_failure, ...). They
	// were created an hour ago (recent for forge status), all on
	// HeadSHA, the head commit of pull request 3.
	Conclusions []string
	// StringIDs sends the IDs of runs and jobs (and a job's run_id) as
	// JSON strings ("2").
	StringIDs bool
	// JobConclusions, when set, replace each run's two jobs: job n (from
	// 1, named "test (n)") concluded with the n-th, as a fail-fast matrix
	// ends: one failure, the others cancelled.
	JobConclusions []string
}

// HeadSHA is the commit of the runs of Options.Conclusions.
const HeadSHA = "c0ffee0000000000000000000000000000c0ffee"

// Hostile is what Options.Hostile appends to every string: a terminal
// title, a screen clear, a C1 CSI, OSC 52 (clipboard), a hyperlink and a
// bidi override.
const Hostile = "\x1b]0;pwned\x07\x1b[2J\u009b31m\x1b]52;c;cHduZWQ=\x07\x1b]8;;http://evil\x1b\\x\u202e"

// Credentials of the fixture's one user.
const (
	Login    = "alice"
	Password = "alice-password-123"
	Code     = "123456" // the TOTP code verify accepts
	// AgentKey is the agent key Options.Refuse403 takes.
	AgentKey = "agk_fixturekey0123456789"
)

// Server is a running fixture.
type Server struct {
	*httptest.Server
	opts Options
	// BaseURL is the REST API's base URL; Token a valid token of alice.
	BaseURL, Token string

	reg      http.Handler // the registry protocol, /v2/
	mu       sync.Mutex
	pending  map[string]bool // tokens waiting for verify
	verified int
	tokens   int
}

// New starts a fixture, stopped when the test ends.
func New(t testing.TB, o Options) *Server {
	if o.Issues == 0 {
		o.Issues = 120
	}
	if o.Repos == 0 {
		o.Repos = 45
	}
	if o.Users == 0 {
		o.Users = 55
	}
	s := &Server{opts: o, pending: map[string]bool{}, Token: "plain-token-of-alice", reg: registry.New(registry.Logger(log.New(io.Discard, "", 0)))}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	s.BaseURL = s.URL + "/api/v2"
	t.Cleanup(s.Close)
	return s
}

// Verified is how many verify calls succeeded.
func (s *Server) Verified() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.verified
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimSuffix(r.URL.Path, "/")
	if path == "/api/v2/auth/login" && r.Method == http.MethodPost {
		s.login(w, r)
		return
	}
	if strings.HasPrefix(path, "/api/v1/") && s.opts.Refuse403 && r.Header.Get("Authorization") != "Bearer "+AgentKey {
		s.json(w, 403, map[string]any{"error": "invalid or expired token"})
		return
	}
	if path == "/api/v1/usage" {
		// A timestamp without a zone, as some services write them.
		s.json(w, 200, map[string]any{"tier": s.str("pro"), "quota_tokens": 1000000, "used_tokens": 10, "remaining": 999990, "period_resets": "2026-12-01T00:00:00"})
		return
	}
	if path == "/api/v1/chat/stream" {
		s.stream(w)
		return
	}
	if path == "/v2" || strings.HasPrefix(path, "/v2/") {
		s.reg.ServeHTTP(w, r)
		return
	}
	if path == "/api/catalog" || strings.HasPrefix(path, "/api/tags/") {
		s.registryList(w, r, path)
		return
	}
	if s.opts.RateLimited && strings.HasPrefix(path, "/api/v2/") {
		w.Header().Set("X-RateLimit-Limit", "60")
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(time.Now().Add(15*time.Minute).Unix(), 10))
		s.json(w, 403, map[string]any{"message": "API rate limit exceeded for 127.0.0.1.", "documentation_url": "https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting"})
		return
	}
	if path == "/api/v2/me/state" && s.opts.NoMeState {
		s.json(w, 404, map[string]any{"error": "not found"})
		return
	}
	tok := strings.TrimSpace(r.Header.Get("Authorization"))
	tok = tok[strings.LastIndexByte(tok, ' ')+1:]
	s.mu.Lock()
	pending, known := s.pending[tok]
	s.mu.Unlock()
	if tok != s.Token && !known && s.opts.Refuse403 {
		s.json(w, 403, map[string]any{"error": "invalid or expired token"})
		return
	}
	if tok != s.Token && !known {
		s.json(w, 401, map[string]any{"error": "bad credentials"})
		return
	}
	if path == "/api/v2/me/2fa/verify" && r.Method == http.MethodPost {
		s.verify(w, r, tok)
		return
	}
	if pending {
		status, msg := 403, "two-factor verification required"
		if s.opts.TwoFAStatus != 0 {
			status, msg = s.opts.TwoFAStatus, s.opts.TwoFAMessage
		}
		s.json(w, status, map[string]any{"error": msg})
		return
	}
	s.route(w, r, path)
}

// stream answers a chat with a short reply, as Server-Sent Events.
func (s *Server) stream(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	delta, _ := json.Marshal(s.str("The job failed."))
	fmt.Fprintf(w, "event: delta\ndata: %s\n\nevent: usage\ndata: {\"prompt_tokens\":10,\"completion_tokens\":3,\"total_tokens\":13}\n\nevent: done\ndata: {}\n\n", delta)
}

func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	var in struct{ Username, Password string }
	json.NewDecoder(r.Body).Decode(&in)
	if in.Username != Login || in.Password != Password {
		s.json(w, 401, map[string]any{"error": "invalid username or password"})
		return
	}
	// Hostile, the login answer's user is too: forge stores it in the
	// profile, and prints it later from there.
	out := map[string]any{"user": map[string]any{"login": s.str(Login), "email": s.str("alice@example.com"), "is_admin": true}}
	tok := s.Token
	if s.opts.TwoFA403 {
		s.mu.Lock()
		s.tokens++
		tok = fmt.Sprintf("pending-token-%d", s.tokens)
		s.pending[tok] = true
		s.mu.Unlock()
		if s.opts.LoginFlag != "" {
			out[s.opts.LoginFlag] = true
		}
	}
	out["token"] = tok
	s.json(w, 200, out)
}

func (s *Server) verify(w http.ResponseWriter, r *http.Request, tok string) {
	var in struct{ Code string }
	json.NewDecoder(r.Body).Decode(&in)
	if in.Code != Code {
		s.json(w, 401, map[string]any{"error": "invalid two-factor code"})
		return
	}
	out := map[string]any{"ok": true}
	s.mu.Lock()
	if s.pending[tok] {
		s.pending[tok] = false
		s.verified++
		if s.opts.VerifyNewToken {
			delete(s.pending, tok)
			out["token"] = fmt.Sprintf("verified-token-%d", s.verified)
			s.pending[out["token"].(string)] = false
		}
	}
	s.mu.Unlock()
	s.json(w, 200, out)
}

func (s *Server) route(w http.ResponseWriter, r *http.Request, path string) {
	const repo = "/api/v2/repos/alice/app"
	q := r.URL.Query()
	switch {
	case path == "/api/v2/me" || path == "/api/v2/user":
		s.json(w, 200, s.user(Login, 1))
	case path == "/api/v2/me/state":
		s.json(w, 200, map[string]any{"role": s.str("site_admin"), "twofa_enabled": s.opts.ConflictOther != "", "ssh_key_added": true, "invited_by": s.str("root"), "activated_at": "2026-01-02T03:04:05Z"})
	case path == "/api/v2/me/keys":
		s.list(w, r, []map[string]any{{"id": 1, "title": s.str("laptop"), "key": s.str("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"), "fingerprint": s.str("SHA256:abc"), "created_at": "2026-01-02T03:04:05Z"}})
	case path == "/api/v2/repos" && r.Method == http.MethodPost:
		s.json(w, 201, s.repo(2))
	case path == "/api/v2/repos":
		s.list(w, r, s.repos())
	case path == repo:
		s.json(w, 200, s.repo(1))
	case path == repo+"/issues" && r.Method == http.MethodPost:
		var in struct{ Title string }
		json.NewDecoder(r.Body).Decode(&in)
		if len(in.Title) > 256 { // the reason only in errors[]
			s.json(w, 422, map[string]any{"message": "Validation Failed", "errors": []map[string]any{{"resource": "Issue", "field": "title", "code": "custom", "message": "title is too long (maximum is 256 characters)"}}})
			return
		}
		s.json(w, 201, s.issue(s.opts.Issues+1))
	case path == repo+"/issues":
		s.list(w, r, s.filter(s.issues(), "state", q.Get("state")))
	case strings.HasPrefix(path, repo+"/issues/"):
		id, sub, _ := strings.Cut(strings.TrimPrefix(path, repo+"/issues/"), "/")
		n, _ := strconv.Atoi(id)
		switch sub {
		case "comments":
			s.comment(w, r)
		case "state":
			s.json(w, 200, s.issue(n))
		default:
			s.json(w, 200, s.issueOrPull(n))
		}
	case path == repo+"/pulls":
		s.list(w, r, s.pulls(q.Get("state")))
	case strings.HasPrefix(path, repo+"/pulls/"):
		n, _ := strconv.Atoi(strings.TrimPrefix(path, repo+"/pulls/"))
		for _, p := range s.pulls("all") {
			if p["id"] == 500+n {
				s.json(w, 200, p)
				return
			}
		}
		s.json(w, 404, map[string]any{"error": "not found"})
	case path == repo+"/contents":
		s.json(w, 200, s.top())
	case s.opts.BigFiles != NoBigFiles && s.bigFile(w, r, strings.TrimPrefix(path, repo+"/contents/")):
	case s.opts.BigFiles == NullContent && strings.HasPrefix(path, repo+"/raw/big."):
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(BigFile(strings.TrimPrefix(path, repo+"/raw/")))
	case strings.HasPrefix(path, repo+"/contents/"):
		body := "# App\n\nHello " + s.str("world") + "\n"
		s.json(w, 200, map[string]any{"name": s.str("README.md"), "type": "file", "path": s.str("README.md"), "size": len(body), "encoding": "base64", "content": base64.StdEncoding.EncodeToString([]byte(body))})
	case path == repo+"/commits":
		s.list(w, r, []map[string]any{{"sha": s.str("0123456789abcdef0123456789abcdef01234567"), "html_url": s.str(s.URL + "/c"),
			"commit": map[string]any{"message": s.str("first commit\n\nbody"), "author": map[string]any{"name": s.str("Alice"), "email": s.str("a@example.com"), "date": "2026-01-02T03:04:05Z"}},
			"author": s.user(Login, 1)}})
	case path == repo+"/collaborators":
		s.list(w, r, []map[string]any{{"login": s.str("bob"), "permission": s.str("write"), "permissions": map[string]any{"push": true}}})
	case path == repo+"/releases":
		s.list(w, r, s.releases())
	case path == repo+"/actions/runs":
		s.list(w, r, s.runs(q.Get("status")))
	case strings.HasPrefix(path, repo+"/actions/runs/"):
		rest := strings.TrimPrefix(path, repo+"/actions/runs/")
		id, sub, _ := strings.Cut(rest, "/")
		n, _ := strconv.Atoi(id)
		if sub == "jobs" {
			s.list(w, r, s.jobs(n))
			return
		}
		s.json(w, 200, s.run(n))
	case strings.HasPrefix(path, repo+"/actions/jobs/") && strings.HasSuffix(path, "/logs"):
		if id, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(path, repo+"/actions/jobs/"), "/logs")); id < 10 {
			s.json(w, 404, map[string]any{"error": "not found"}) // job IDs are 10 and up
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		if s.opts.LogTokens {
			fmt.Fprintf(w, "pulling image %s\nvault login with %s\ncurl -H 'X-Service: %s' https://hooks.example.com\n", LogDigest, LogToken, LogKey)
		}
		fmt.Fprintf(w, "\x1b[32m==> Test\x1b[0m\ngo test ./...\n\x1b[31mFAIL\x1b[0m example.com/app %s\n##[error]Process completed with exit code 1.\n", s.str(""))
	case strings.HasPrefix(path, "/api/v2/admin/users/") && r.Method == http.MethodPost:
		login, verb, _ := strings.Cut(strings.TrimPrefix(path, "/api/v2/admin/users/"), "/")
		if s.opts.ConflictOther != "" {
			s.json(w, 409, map[string]any{"error": s.opts.ConflictOther})
			return
		}
		if s.opts.ConflictWhenHeld && (verb == "disable") == (login == "user002") {
			s.json(w, 409, map[string]any{"error": "user " + login + " is already " + verb + "d"})
			return
		}
		s.json(w, 200, map[string]any{"ok": true})
	case path == "/api/v2/me/2fa/disable" && r.Method == http.MethodPost && s.opts.ConflictOther != "":
		s.json(w, 409, map[string]any{"error": s.opts.ConflictOther})
	case path == "/api/v2/me/2fa/disable" && r.Method == http.MethodPost:
		if s.opts.ConflictWhenHeld {
			s.json(w, 409, map[string]any{"error": "two-factor authentication is not enabled"})
			return
		}
		s.json(w, 200, map[string]any{"ok": true})
	case path == "/api/v2/admin/users":
		s.list(w, r, s.users())
	case path == "/api/v2/admin/invites" && r.Method == http.MethodPost:
		s.json(w, 201, map[string]any{"id": 803, "username": s.str("dave"), "email": s.str("d@example.com"), "status": s.str("pending")})
	case path == "/api/v2/admin/invites":
		s.list(w, r, s.invites())
	default:
		s.json(w, 404, map[string]any{"error": "not found"})
	}
}

// top is the listing of alice/app's top directory.
func (s *Server) top() []map[string]any {
	out := []map[string]any{{"name": s.str("README.md"), "type": "file", "path": s.str("README.md"), "size": 40}, {"name": s.str("src"), "type": "dir", "path": s.str("src")}}
	if s.opts.BigFiles != NoBigFiles {
		for _, name := range []string{"big.bin", "big.txt", "denied.txt"} {
			size := 10
			if name != "denied.txt" {
				size = len(BigFile(name))
			}
			out = append(out, map[string]any{"name": name, "type": "file", "path": name, "size": size,
				"html_url": s.URL + "/alice/app/blob/main/" + name})
		}
	}
	return out
}

// bigFile answers for a big file, as Options.BigFiles says, and reports
// whether name is one.
func (s *Server) bigFile(w http.ResponseWriter, r *http.Request, name string) bool {
	if name != "big.bin" && name != "big.txt" && name != "denied.txt" {
		return false
	}
	if name == "denied.txt" {
		s.json(w, 403, map[string]any{"message": "Resource not accessible by integration", "documentation_url": "https://docs.github.com/rest"})
		return true
	}
	b := BigFile(name)
	if s.opts.BigFiles == NullContent {
		s.json(w, 200, map[string]any{"name": name, "type": "file", "path": name, "size": len(b), "encoding": nil, "content": nil,
			"html_url": s.URL + "/alice/app/src/branch/main/" + name})
		return true
	}
	if strings.Contains(r.Header.Get("Accept"), "application/vnd.github.raw") {
		w.Header().Set("Content-Type", "application/vnd.github.raw")
		if s.opts.BigFiles == EmptyContent {
			w.Header().Set("Content-Length", strconv.Itoa(len(b)))
		}
		w.WriteHeader(200)
		for len(b) > 0 { // in pieces, as a stream
			n := min(len(b), 64<<10)
			w.Write(b[:n])
			b = b[n:]
		}
		return true
	}
	if s.opts.BigFiles == Refused {
		s.json(w, 403, map[string]any{"message": "This API returns blobs up to 1 MB in size. The requested blob is too large to fetch via the API, but you can use the Git Data API to request blobs up to 100 MB in size.",
			"errors": []map[string]any{{"resource": "Blob", "field": "data", "code": "too_large"}}, "documentation_url": "https://docs.github.com/rest/repos/contents#get-repository-content"})
		return true
	}
	s.json(w, 200, map[string]any{"name": name, "type": "file", "path": name, "size": len(b), "encoding": "none", "content": "",
		"html_url": s.URL + "/alice/app/blob/main/" + name})
	return true
}

// json writes v, hostile strings and all.
func (s *Server) json(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// str is a string field's value: as given, or hostile.
func (s *Server) str(v string) string {
	if s.opts.Hostile {
		return v + Hostile
	}
	return v
}

// filter keeps the records whose field equals want ("" or "all": all),
// unless the fixture ignores filters.
func (s *Server) filter(recs []map[string]any, field, want string) []map[string]any {
	if s.opts.IgnoreFilters || want == "" || want == "all" {
		return recs
	}
	var out []map[string]any
	for _, r := range recs {
		if fmt.Sprint(r[field]) == s.str(want) {
			out = append(out, r)
		}
	}
	return out
}

// list writes one page of recs in the fixture's paging style.
func (s *Server) list(w http.ResponseWriter, r *http.Request, recs []map[string]any) {
	q := r.URL.Query()
	num := func(k string, def int) int {
		if n, err := strconv.Atoi(q.Get(k)); err == nil && n > 0 {
			return n
		}
		return def
	}
	page := num("page", 1)
	var lo, per int
	switch s.opts.Paging {
	case NoPaging:
		s.json(w, 200, recs)
		return
	case FirstPageOnly:
		s.json(w, 200, recs[:min(20, len(recs))])
		return
	case LinkAbsolute, LinkRelative, PagePerPage:
		per = min(num("per_page", 30), 100)
	case PageLimit:
		per = min(num("limit", 20), 50)
		w.Header().Set("X-Total-Count", strconv.Itoa(len(recs)))
	case FixedPages, NotFoundPast, LinkNotFound:
		per = 20
		if s.opts.Paging != FixedPages && page > 1 && (page-1)*per >= len(recs) {
			s.json(w, 404, map[string]any{"error": "not found"})
			return
		}
	case Cursor:
		per = min(num("limit", 20), 100)
		page = 1
		if c := q.Get("cursor"); c != "" {
			b, _ := base64.RawURLEncoding.DecodeString(c)
			n, _ := strconv.Atoi(strings.TrimPrefix(string(b), "after:"))
			page = n/per + 1
		}
	}
	lo = min((page-1)*per, len(recs))
	hi := min(lo+per, len(recs))
	if s.opts.Paging == LinkNotFound && hi == len(recs) {
		w.Header().Set("Link", fmt.Sprintf(`<%s?page=%d>; rel="next"`, r.URL.Path, page+1))
	}
	if hi < len(recs) {
		next := url.Values{}
		for k, v := range q {
			next[k] = v
		}
		switch s.opts.Paging {
		case LinkAbsolute:
			last := url.Values{}
			for k, v := range next {
				last[k] = v
			}
			next.Set("page", strconv.Itoa(page+1))
			last.Set("page", strconv.Itoa((len(recs)+per-1)/per))
			w.Header().Set("Link", fmt.Sprintf(`<%s%s?%s>; rel="next", <%s%s?%s>; rel="last"`, s.URL, r.URL.Path, next.Encode(), s.URL, r.URL.Path, last.Encode()))
		case LinkRelative, LinkNotFound:
			next.Set("page", strconv.Itoa(page+1))
			w.Header().Set("Link", fmt.Sprintf(`<%s?%s>; rel=next`, r.URL.Path, next.Encode()))
		case Cursor:
			next.Del("page")
			next.Set("cursor", base64.RawURLEncoding.EncodeToString([]byte("after:"+strconv.Itoa(hi))))
			w.Header().Set("Link", fmt.Sprintf(`<%s?%s>; rel=next`, r.URL.Path, next.Encode()))
		}
	}
	s.json(w, 200, recs[lo:hi])
}

func (s *Server) user(login string, id int) map[string]any {
	u := map[string]any{"id": id, "login": s.str(login), "email": s.str(login + "@example.com"), "is_admin": id == 1, "full_name": s.str(strings.ToUpper(login[:1]) + login[1:])}
	if s.opts.Style == Alt {
		u["username"] = u["login"]
	}
	return u
}

func (s *Server) users() []map[string]any {
	out := []map[string]any{s.user(Login, 1)}
	for i := 2; i <= s.opts.Users; i++ {
		out = append(out, s.user(fmt.Sprintf("user%03d", i), i))
	}
	for i, u := range out { // user002 is disabled (Options.ConflictWhenHeld)
		u["state"] = s.str(map[bool]string{true: "disabled", false: "enabled"}[i == 1])
	}
	return out
}

func (s *Server) repo(i int) map[string]any {
	name := "app"
	if i > 1 {
		name = fmt.Sprintf("repo%03d", i)
	}
	return map[string]any{"id": i, "name": s.str(name), "full_name": s.str("alice/" + name), "owner": s.user(Login, 1), "description": s.str("repository " + name),
		"private": false, "default_branch": s.str("main"), "clone_url": s.str(s.URL + "/alice/" + name + ".git"), "html_url": s.str(s.URL + "/alice/" + name),
		"created_at": "2026-01-02T03:04:05Z", "updated_at": "2026-01-02T03:04:05Z"}
}

func (s *Server) repos() []map[string]any {
	var out []map[string]any
	for i := 1; i <= s.opts.Repos; i++ {
		out = append(out, s.repo(i))
	}
	return out
}

// issue n: the first 17 are closed, the rest open (103 of 120: no page
// size); newest first.
func (s *Server) issue(n int) map[string]any {
	state := "open"
	if n <= 17 {
		state = "closed"
	}
	return map[string]any{"id": 1000 + n, "number": n, "title": s.str(fmt.Sprintf("issue %d", n)), "body": s.str("body"), "state": state,
		"user": s.user(Login, 1), "comments": 0, "created_at": "2026-01-02T03:04:05Z", "html_url": s.str(fmt.Sprintf("%s/alice/app/issues/%d", s.URL, n)), "comments_list": []any{}}
}

// issueOrPull is issue n as its own read answers it: with
// Options.IssuesCoverPulls, pull request n when there is one.
func (s *Server) issueOrPull(n int) map[string]any {
	if s.opts.IssuesCoverPulls {
		for _, p := range s.pulls("all") {
			if p["number"] == n {
				is := s.issue(n)
				is["title"], is["html_url"], is["comments_list"] = p["title"], p["html_url"], []any{}
				is["pull_request"] = map[string]any{"url": fmt.Sprintf("%s/repos/alice/app/pulls/%d", s.BaseURL, n), "html_url": p["html_url"]}
				return is
			}
		}
	}
	return s.issue(n)
}

func (s *Server) issues() []map[string]any {
	var out []map[string]any
	for n := s.opts.Issues; n >= 1; n-- {
		out = append(out, s.issue(n))
	}
	return out
}

// pulls: #3 open, #2 merged, #1 closed without merging.
func (s *Server) pulls(state string) []map[string]any {
	var out []map[string]any
	for _, p := range []struct {
		n     int
		state string
	}{{3, "open"}, {2, "merged"}, {1, "closed"}} {
		rec := map[string]any{"id": 500 + p.n, "number": p.n, "title": s.str(fmt.Sprintf("change %d", p.n)), "body": s.str(""), "html_url": s.str(fmt.Sprintf("%s/alice/app/pulls/%d", s.URL, p.n)), "created_at": "2026-01-02T03:04:05Z"}
		if s.opts.Style == Alt {
			st := map[string]string{"open": "opened", "merged": "merged", "closed": "closed"}[p.state]
			rec["state"], rec["author"], rec["source_branch"], rec["target_branch"] = s.str(st), s.user("bob", 2), s.str(fmt.Sprintf("topic-%d", p.n)), s.str("main")
			rec["iid"] = p.n
		} else {
			st := p.state
			if st == "merged" {
				st, rec["merged"], rec["merged_at"] = "closed", true, "2026-01-03T03:04:05Z"
			}
			rec["state"], rec["user"] = s.str(st), s.user("bob", 2)
			rec["head"] = map[string]any{"ref": s.str(fmt.Sprintf("topic-%d", p.n))}
			if p.n == 3 && len(s.opts.Conclusions) > 0 {
				rec["head"].(map[string]any)["sha"] = s.str(HeadSHA)
			}
			rec["base"] = map[string]any{"ref": s.str("main")}
		}
		want := state
		if s.opts.IgnoreFilters || want == "" || want == "all" || (want == "open") == (p.state == "open") {
			out = append(out, rec)
		}
	}
	return out
}

// releases: v1.1.0-rc1 (newest, a pre-release) and v1.0.0.
func (s *Server) releases() []map[string]any {
	var out []map[string]any
	for i, tag := range []string{"v1.1.0-rc1", "v1.0.0"} {
		rec := map[string]any{"id": 700 - i, "tag_name": s.str(tag), "name": s.str("Release " + tag), "body": s.str(""), "draft": false}
		if s.opts.Style == Alt {
			rec["is_prerelease"], rec["created_at"] = i == 0, fmt.Sprintf("2026-0%d-01T00:00:00Z", 3-i)
		} else {
			rec["prerelease"], rec["published_at"] = i == 0, fmt.Sprintf("2026-0%d-01T00:00:00Z", 3-i)
		}
		out = append(out, rec)
	}
	return out
}

// run n: 3 succeeded, 2 failed, 1 succeeded (or as Options.Conclusions say).
func (s *Server) run(n int) map[string]any {
	result, created, sha := "success", "2026-01-02T03:04:05Z", fmt.Sprintf("%040d", n)
	if n == 2 {
		result = "failure"
	}
	if c := s.opts.Conclusions; len(c) > 0 {
		created, sha = time.Now().Add(-time.Hour).UTC().Format(time.RFC3339), HeadSHA
		if n >= 1 && n <= len(c) {
			result = c[n-1]
		}
	}
	rec := map[string]any{"id": s.id(n), "created_at": created, "html_url": s.str(fmt.Sprintf("%s/alice/app/actions/runs/%d", s.URL, n)), "event": s.str("push")}
	if s.opts.Style == Alt {
		rec["title"], rec["commit_sha"], rec["trigger_user"], rec["ref"], rec["status"] = s.str(fmt.Sprintf("Build %d", n)), s.str(sha), s.user("carol", 3), s.str("main"), s.str(result)
	} else {
		rec["name"], rec["display_title"], rec["head_sha"], rec["actor"], rec["head_branch"], rec["status"], rec["conclusion"] = s.str("CI"), s.str(fmt.Sprintf("Build %d", n)), s.str(sha), s.user("carol", 3), s.str("main"), s.str("completed"), s.str(result)
	}
	return rec
}

// id is a run's or job's ID: a number, or as Options.StringIDs says.
func (s *Server) id(n int) any {
	if s.opts.StringIDs {
		return strconv.Itoa(n)
	}
	return n
}

func (s *Server) runs(status string) []map[string]any {
	var out []map[string]any
	count := 3
	if len(s.opts.Conclusions) > 0 {
		count = len(s.opts.Conclusions)
	}
	for n := count; n >= 1; n-- {
		r := s.run(n)
		ok := status == "" || s.opts.IgnoreFilters || fmt.Sprint(r["conclusion"]) == s.str(status) || fmt.Sprint(r["status"]) == s.str(status)
		if ok {
			out = append(out, r)
		}
	}
	return out
}

// jobs of run n: build succeeded; test as the run ended.
func (s *Server) jobs(n int) []map[string]any {
	result := fmt.Sprint(s.run(n)["status"])
	if s.opts.Style != Alt {
		result = fmt.Sprint(s.run(n)["conclusion"])
	}
	plan := []struct{ name, result string }{{"build", s.str("success")}, {"test", result}}
	if c := s.opts.JobConclusions; len(c) > 0 {
		plan = plan[:0]
		for i, r := range c {
			plan = append(plan, struct{ name, result string }{fmt.Sprintf("test (%d)", i+1), r})
		}
	}
	var out []map[string]any
	for i, j := range plan {
		rec := map[string]any{"id": s.id(n*10 + i), "run_id": s.id(n)}
		if s.opts.Style == Alt {
			rec["status"] = j.result // no name, no conclusion
		} else {
			rec["name"], rec["status"], rec["conclusion"] = s.str(j.name), s.str("completed"), j.result
		}
		out = append(out, rec)
	}
	return out
}

func (s *Server) invites() []map[string]any {
	if s.opts.Style == Alt {
		return []map[string]any{{"id": 801, "status": s.str("pending")}, {"id": 802, "email": s.str("dave@example.com"), "status": s.str("accepted"), "inviter": s.user(Login, 1)}}
	}
	return []map[string]any{{"id": 801, "username": s.str("dave"), "email": s.str("dave@example.com"), "role": s.str("user"), "state": s.str("pending"), "invited_by": s.str(Login), "created_at": "2026-01-02T03:04:05Z"}}
}
