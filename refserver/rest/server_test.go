package rest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/refserver/gitstore"
	"github.com/forgehq/forge/refserver/store"
)

// testAPI is the REST API's real handler over a store in memory, served on
// 127.0.0.1, with a token per account.
type testAPI struct {
	url    string // the API's, origin + Prefix
	origin string // git's repositories are at origin/OWNER/NAME.git
	st     *store.Store
	tokens map[string]string
}

// newTestAPI serves the API with alice (owner of alice/pub, public, and
// alice/priv, private: bob reads it, carol writes), dave (a stranger to
// both) and root (a site admin).
func newTestAPI(t *testing.T) *testAPI { return newTestAPIWith(t, nil) }

// newTestAPIWith is newTestAPI with configure's changes to its Config.
func newTestAPIWith(t *testing.T, configure func(*Config)) *testAPI {
	t.Helper()
	st, err := store.Open("", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var origin string
	cfg := Config{Store: st, Git: gitstore.New(t.TempDir()), PasswordCost: 4, PublicURL: func() string { return origin }}
	if configure != nil {
		configure(&cfg)
	}
	api := New(cfg)
	// Routed as the server routes (refserver/server.go): the API under
	// its prefix, git's smart HTTP at the repositories' clone URLs.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, Prefix+"/") || !api.GitHTTP(w, r) {
			api.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	origin = srv.URL
	ta := &testAPI{url: srv.URL + Prefix, origin: srv.URL, st: st, tokens: map[string]string{}}
	users := map[string]store.User{}
	for login, role := range map[string]string{"alice": store.RoleUser, "bob": store.RoleUser, "carol": store.RoleUser, "dave": store.RoleUser, "root": store.RoleSiteAdmin} {
		u, err := st.CreateUser(store.NewUser{Login: login, Email: login + "@example.com", Role: role, Activated: true})
		if err != nil {
			t.Fatal(err)
		}
		if ta.tokens[login], err = st.IssueToken(u.ID, false); err != nil {
			t.Fatal(err)
		}
		users[login] = u
	}
	if _, err := st.CreateRepo(users["alice"], "pub", "", false); err != nil {
		t.Fatal(err)
	}
	priv, err := st.CreateRepo(users["alice"], "priv", "", true)
	if err != nil {
		t.Fatal(err)
	}
	for login, perm := range map[string]string{"bob": store.PermRead, "carol": store.PermWrite} {
		if _, err := st.SetCollaborator(priv.ID, users[login], perm); err != nil {
			t.Fatal(err)
		}
	}
	return ta
}

type answer struct {
	status int
	header http.Header
	body   []byte
}

// errorText is the message of an answer in the Error shape, failing the
// test when the answer has another shape.
func (a answer) errorText(t *testing.T) string {
	t.Helper()
	var e map[string]string
	if err := json.Unmarshal(a.body, &e); err != nil || len(e) != 1 || e["error"] == "" {
		t.Fatalf("%d %s: not the Error shape", a.status, a.body)
	}
	if ct := a.header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Errorf("an error as %q", ct)
	}
	return e["error"]
}

// do sends a request as user ("" for none) with an optional JSON body.
func (ta *testAPI) do(t *testing.T, user, method, path, body string) answer {
	t.Helper()
	req, err := http.NewRequest(method, ta.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if user != "" {
		req.Header.Set("Authorization", "token "+ta.tokens[user])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, resp.Header, data}
}

// TestAccessRules: the permission rules of policy.go, request by request.
// A private repository is invisible (the very 404 of one that does not
// exist) to whoever may not see it; whoever sees it but lacks the
// permission gets 403 naming it.
func TestAccessRules(t *testing.T) {
	t.Parallel()
	ta := newTestAPI(t)
	for _, repo := range []string{"pub", "priv"} {
		if a := ta.do(t, "alice", "POST", "/repos/alice/"+repo+"/issues", `{"title":"by alice"}`); a.status != http.StatusCreated {
			t.Fatalf("opening an issue: %d %s", a.status, a.body)
		}
	}
	if a := ta.do(t, "dave", "POST", "/repos/alice/pub/issues", `{"title":"by dave"}`); a.status != http.StatusCreated {
		t.Fatalf("opening an issue: %d %s", a.status, a.body)
	}
	missing := ta.do(t, "dave", "GET", "/repos/alice/none", "").errorText(t)
	if missing != "repository alice/none not found" {
		t.Fatalf("a missing repository: %q", missing)
	}
	for _, c := range []struct {
		user, method, path, body string
		status                   int
		msg                      string // the error's, when not 2xx
	}{
		{"dave", "GET", "/repos/alice/priv", "", 404, "repository alice/priv not found"},
		{"dave", "GET", "/repos/alice/priv/issues", "", 404, "repository alice/priv not found"},
		{"dave", "GET", "/repos/alice/pub", "", 200, ""},
		{"bob", "GET", "/repos/alice/priv", "", 200, ""},
		{"root", "GET", "/repos/alice/priv", "", 200, ""},
		// write: an issue someone else opened
		{"bob", "POST", "/repos/alice/priv/issues/1/state", `{"state":"closed"}`, 403, "changing an issue someone else opened needs write permission on alice/priv"},
		{"dave", "POST", "/repos/alice/pub/issues/1/state", `{"state":"closed"}`, 403, "changing an issue someone else opened needs write permission on alice/pub"},
		{"dave", "POST", "/repos/alice/pub/issues/2/state", `{"state":"closed"}`, 200, ""}, // the author
		{"carol", "POST", "/repos/alice/priv/issues/1/state", `{"state":"closed"}`, 200, ""},
		{"root", "POST", "/repos/alice/priv/issues/1/state", `{"state":"open"}`, 200, ""},
		// admin: editing the repository
		{"carol", "PATCH", "/repos/alice/priv", `{"description":"x"}`, 403, "editing a repository needs admin permission on alice/priv"},
		{"dave", "PATCH", "/repos/alice/pub", `{"description":"x"}`, 403, "editing a repository needs admin permission on alice/pub"},
		{"dave", "PATCH", "/repos/alice/priv", `{"description":"x"}`, 404, "repository alice/priv not found"},
		{"root", "PATCH", "/repos/alice/priv", `{"description":"by root"}`, 200, ""},
		{"alice", "PATCH", "/repos/alice/priv", `{"description":"by alice"}`, 200, ""},
	} {
		a := ta.do(t, c.user, c.method, c.path, c.body)
		if a.status != c.status {
			t.Errorf("%s %s %s: %d %s, want %d", c.user, c.method, c.path, a.status, a.body, c.status)
			continue
		}
		if c.msg != "" {
			if got := a.errorText(t); got != c.msg {
				t.Errorf("%s %s %s: %q, want %q", c.user, c.method, c.path, got, c.msg)
			}
		}
	}
}

// TestErrorsOverHTTP: every way a request fails reaches the client in the
// Error shape with its status, from the handlers (through writeError) and
// from the router alike.
func TestErrorsOverHTTP(t *testing.T) {
	t.Parallel()
	ta := newTestAPI(t)
	pending, err := ta.st.IssueToken(1, true)
	if err != nil {
		t.Fatal(err)
	}
	ta.tokens["pending"] = pending
	ta.tokens["revoked"] = "fgt_" + strings.Repeat("x", 40)
	for _, c := range []struct {
		user, method, path, body string
		status                   int
		prefix                   string
	}{
		{"", "GET", "/me", "", 401, "authentication required: send the header Authorization: token <TOKEN>"},
		{"revoked", "GET", "/me", "", 401, "bad credentials: the token is unknown or was revoked; log in again"},
		{"pending", "GET", "/me", "", 401, "two-factor verification required"},
		{"", "POST", "/auth/login", `{"username":"alice"}`, 400, "field password is required"},
		{"", "POST", "/auth/login", `{"username":"alice","password":"x"}`, 401, "incorrect username or password"},
		{"", "GET", "/auth/login", "", 405, "GET is not allowed on /api/v2/auth/login; allowed: POST"},
		{"alice", "GET", "/nope", "", 404, "not found: /api/v2/nope"},
		{"alice", "PUT", "/me", "", 405, "PUT is not allowed on /api/v2/me; allowed: GET, HEAD"},
		{"alice", "POST", "/repos", `{"name": 7}`, 400, "field name must be a string, not number"},
		{"alice", "POST", "/repos", `{"name": "x"`, 400, "malformed JSON"},
		{"alice", "POST", "/repos", `["x"]`, 400, "request body must be a JSON object"},
		{"alice", "POST", "/repos", `{}`, 400, "field name is required"},
		{"alice", "POST", "/repos", `{"name":"x"} {}`, 400, "malformed JSON: unexpected data after the object"},
		{"alice", "POST", "/repos", `{"name":"pub"}`, 409, ""},
		{"alice", "POST", "/repos", `{"name":"` + strings.Repeat("x", maxBody) + `"}`, 413, fmt.Sprintf("request body over %d bytes", maxBody)},
		{"alice", "GET", "/repos/alice/pub/issues/x", "", 404, `number "x" not found: must be a positive integer`},
		{"alice", "GET", "/repos/alice/pub/issues?page=0", "", 400, `query parameter page must be a positive integer, not "0"`},
		{"alice", "GET", "/repos/alice/pub/issues?per_page=x", "", 400, `query parameter per_page must be a positive integer, not "x"`},
	} {
		a := ta.do(t, c.user, c.method, c.path, c.body)
		if a.status != c.status {
			t.Errorf("%s %s: %d %.200s, want %d", c.method, c.path, a.status, a.body, c.status)
			continue
		}
		if got := a.errorText(t); !strings.HasPrefix(got, c.prefix) {
			t.Errorf("%s %s: %q, want %q...", c.method, c.path, got, c.prefix)
		}
	}
}

// TestPaging: page and per_page cut a list, the Link header gives the
// other pages as absolute URLs on the server's public origin with the
// query kept, per_page is clamped to 100, a page past the end is [].
func TestPaging(t *testing.T) {
	t.Parallel()
	ta := newTestAPI(t)
	for i := 1; i <= 5; i++ {
		if a := ta.do(t, "alice", "POST", "/repos/alice/pub/issues", fmt.Sprintf(`{"title":"issue %d"}`, i)); a.status != http.StatusCreated {
			t.Fatalf("%d %s", a.status, a.body)
		}
	}
	origin := strings.TrimSuffix(ta.url, Prefix)
	numbers := func(a answer) string {
		t.Helper()
		var list []struct{ Number int }
		if a.status != http.StatusOK || json.Unmarshal(a.body, &list) != nil {
			t.Fatalf("%d %s", a.status, a.body)
		}
		var out []string
		for _, i := range list {
			out = append(out, fmt.Sprint(i.Number))
		}
		return strings.Join(out, " ")
	}
	link := func(q string) string {
		return "<" + origin + Prefix + "/repos/alice/pub/issues?" + q + ">"
	}
	for _, c := range []struct {
		query, numbers, link string
	}{
		{"", "5 4 3 2 1", ""},
		{"?per_page=2", "5 4", link("page=2&per_page=2") + `; rel="next", ` + link("page=3&per_page=2") + `; rel="last"`},
		{"?per_page=2&page=2&state=open", "3 2",
			link("page=3&per_page=2&state=open") + `; rel="next", ` + link("page=3&per_page=2&state=open") + `; rel="last", ` +
				link("page=1&per_page=2&state=open") + `; rel="first", ` + link("page=1&per_page=2&state=open") + `; rel="prev"`},
		{"?per_page=2&page=3", "1", link("page=1&per_page=2") + `; rel="first", ` + link("page=2&per_page=2") + `; rel="prev"`},
		{"?per_page=2&page=9", "", link("page=1&per_page=2") + `; rel="first", ` + link("page=3&per_page=2") + `; rel="prev"`},
	} {
		a := ta.do(t, "alice", "GET", "/repos/alice/pub/issues"+c.query, "")
		if got := numbers(a); got != c.numbers {
			t.Errorf("%s: issues %q, want %q", c.query, got, c.numbers)
		}
		if got := a.header.Get("Link"); got != c.link {
			t.Errorf("%s: Link\n%s\nwant\n%s", c.query, got, c.link)
		}
		if c.numbers == "" && !bytes.Equal(bytes.TrimSpace(a.body), []byte("[]")) {
			t.Errorf("%s: a page past the end is %s", c.query, a.body)
		}
	}
	// per_page is clamped to maxPerPage, which the links say.
	repo, _ := ta.st.RepoByName("alice", "pub")
	alice, _ := ta.st.UserByLogin("alice")
	for i := 6; i <= maxPerPage+1; i++ {
		if _, err := ta.st.CreateIssue(repo.ID, alice, fmt.Sprintf("issue %d", i), "", time.Time{}); err != nil {
			t.Fatal(err)
		}
	}
	a := ta.do(t, "alice", "GET", "/repos/alice/pub/issues?per_page=1000", "")
	if got := strings.Fields(numbers(a)); len(got) != maxPerPage || got[0] != fmt.Sprint(maxPerPage+1) {
		t.Errorf("per_page=1000: %d issues from %s", len(got), got[0])
	}
	if want := link("page=2&per_page=100") + `; rel="next", ` + link("page=2&per_page=100") + `; rel="last"`; a.header.Get("Link") != want {
		t.Errorf("per_page=1000: Link\n%s\nwant\n%s", a.header.Get("Link"), want)
	}
}
