package refserver_test

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
)

// fuzzEndpoints are the endpoints that read a JSON body or a query.
var fuzzEndpoints = []struct{ method, path string }{
	{"POST", "/auth/login"},
	{"PATCH", "/me/profile"},
	{"POST", "/me/password"},
	{"POST", "/me/2fa/confirm"},
	{"POST", "/me/2fa/verify"},
	{"POST", "/me/2fa/disable"},
	{"POST", "/me/keys"},
	{"POST", "/admin/invites"},
	{"POST", "/repos"},
	{"PATCH", "/repos/admin/app"},
	{"POST", "/repos/admin/app/issues"},
	{"PATCH", "/repos/admin/app/issues/1"},
	{"POST", "/repos/admin/app/issues/1/comments"},
	{"POST", "/repos/admin/app/issues/1/state"},
	{"POST", "/repos/admin/app/collaborators"},
	{"POST", "/repos/admin/app/pulls"},
	{"POST", "/repos/admin/app/releases"},
	{"POST", "/repos/admin/app/actions/runs"},
	{"GET", "/repos/admin/app/issues"},
	{"GET", "/repos/admin/app/commits"},
	{"GET", "/repos/admin/app/contents/README.md"},
	{"GET", "/repos/admin/app/actions/runs"},
}

// FuzzRequests sends arbitrary bodies and queries to every endpoint that
// reads them, through the server's real handler, and requires an answer
// below 500 with a well-formed body: bad input is the client's fault,
// never a crash. Run longer with
//
//	go test ./refserver -run '^$' -fuzz FuzzRequests -fuzztime 60s
func FuzzRequests(f *testing.F) {
	s := refservertest.New(f)
	if _, err := s.CreateRepo("admin", "app", refserver.RepoOptions{AutoInit: true}); err != nil {
		f.Fatal(err)
	}
	if _, err := s.CreateIssue("admin/app", "", "First", ""); err != nil {
		f.Fatal(err)
	}
	if _, err := s.CreateUser("bob", "bob-password-123", ""); err != nil {
		f.Fatal(err)
	}
	seeds := []string{
		`{"username":"admin","password":refservertest.AdminPassword}`, `{"full_name":"A","email":"a@example.com"}`,
		`{"old_password":"x","new_password":"yyyyyyyyyyyyyy"}`, `{"code":"123456"}`, `{"title":"t","key":"ssh-ed25519 AAAA"}`,
		`{"username":"zed","email":"z@example.com","role":"user"}`, `{"name":"x","private":true,"auto_init":true}`,
		`{"title":"t","body":"b","state":"closed"}`, `{"body":"c"}`, `{"state":"open"}`, `{"username":"bob","permission":"read"}`,
		`{"title":"p","head":"main","base":"main"}`, `{"tag_name":"v1","draft":false}`, `{"ref":"main","conclusion":"failure"}`,
		``, `null`, `[]`, `{`, `{"title":5}`, `{"name":{"a":[1,2]}}`, "\x00\xff", `{"state":null}`, `"str"`, `{"a":1}{"b":2}`,
	}
	for i, b := range seeds {
		f.Add(uint8(i), []byte(b), "page=2&per_page=5&state=all")
	}
	f.Add(uint8(0), []byte(`{}`), "page=-1")
	f.Add(uint8(18), []byte(``), "per_page=1000000000000")
	f.Add(uint8(20), []byte(``), "ref=%00")
	h := s.Handler()
	f.Fuzz(func(t *testing.T, which uint8, body []byte, query string) {
		ep := fuzzEndpoints[int(which)%len(fuzzEndpoints)]
		tok, err := s.Token("admin")
		if err != nil {
			t.Fatal(err)
		}
		q, err := url.ParseQuery(query)
		if err != nil {
			q = url.Values{"q": {query}}
		}
		query = q.Encode()
		req := httptest.NewRequest(ep.method, "http://127.0.0.1"+"/api/v2"+ep.path+"?"+query, bytes.NewReader(body))
		req.Header.Set("Authorization", "token "+tok)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code >= 500 {
			t.Fatalf("%s %s?%s with %q: %d %s", ep.method, ep.path, query, body, w.Code, w.Body)
		}
		if w.Code >= 400 {
			var e map[string]any
			if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || len(e) != 1 || e["error"] == "" {
				t.Fatalf("%s %s with %q: error body %q", ep.method, ep.path, body, w.Body)
			}
		} else if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Fatalf("%s %s: Content-Type %q", ep.method, ep.path, ct)
		}
	})
}
