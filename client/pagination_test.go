package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// pagedServer serves /api/v2/repos in pages of per (default 2) out of
// total repos, linking pages with Link headers; odd pages link with a
// relative URL, even ones with an absolute one.
func pagedServer(t *testing.T, total int) (*httptest.Server, *atomic.Int32) {
	var requests atomic.Int32
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		per, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
		if per == 0 {
			per = 2
		}
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		if page == 0 {
			page = 1
		}
		var items []map[string]any
		for i := (page - 1) * per; i < page*per && i < total; i++ {
			items = append(items, map[string]any{"id": i + 1, "name": fmt.Sprintf("r%d", i+1), "full_name": fmt.Sprintf("alice/r%d", i+1), "stars": i})
		}
		if page*per < total {
			next := fmt.Sprintf("/api/v2/repos?page=%d&per_page=%d", page+1, per)
			if page%2 == 0 {
				next = srv.URL + next
			}
			w.Header().Add("Link", fmt.Sprintf(`<%s?page=1&per_page=%d>; rel="first", <%s>; rel="next"`, srv.URL+"/api/v2/repos", per, next))
		}
		json.NewEncoder(w).Encode(items)
	}))
	t.Cleanup(srv.Close)
	return srv, &requests
}

func TestPaginationFollowsAllPages(t *testing.T) {
	t.Parallel()
	srv, requests := pagedServer(t, 7)
	c, _ := newTestClient(t, srv)
	repos, err := Collect(c.Repos.List(context.Background(), ListOptions{}), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(repos) != 7 || repos[6].FullName != "alice/r7" || requests.Load() != 4 {
		t.Fatalf("%d repos in %d requests", len(repos), requests.Load())
	}
	// Each record keeps the JSON the server sent, unknown fields included.
	var raw map[string]any
	if err := json.Unmarshal(repos[3].RawJSON(), &raw); err != nil || raw["stars"] != 3.0 {
		t.Fatalf("raw = %s", repos[3].RawJSON())
	}
}

func TestPaginationStopsEarly(t *testing.T) {
	t.Parallel()
	srv, requests := pagedServer(t, 1000)
	c, _ := newTestClient(t, srv)
	repos, err := Collect(c.Repos.List(context.Background(), ListOptions{}), 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(repos) != 3 || requests.Load() != 2 {
		t.Fatalf("%d repos in %d requests; want 3 in 2", len(repos), requests.Load())
	}
	// PerPage goes to the server, so one request can suffice.
	requests.Store(0)
	repos, err = Collect(c.Repos.List(context.Background(), ListOptions{PerPage: 5}), 5)
	if err != nil || len(repos) != 5 || requests.Load() != 1 {
		t.Fatalf("%d repos in %d requests (err %v); want 5 in 1", len(repos), requests.Load(), err)
	}
	// A range loop that breaks fetches nothing more.
	requests.Store(0)
	for r, err := range c.Repos.List(context.Background(), ListOptions{}) {
		if err != nil || r.ID == 1 {
			break
		}
	}
	if requests.Load() != 1 {
		t.Fatalf("break after the first record made %d requests", requests.Load())
	}
}

func TestPaginationLoopGuardAndErrors(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch n.Add(1) {
		case 1:
			// A next link to the page itself must not loop forever.
			w.Header().Set("Link", `</api/v2/me/keys>; rel="next"`)
			w.Write([]byte(`[{"id":1,"title":"a"}]`))
		default:
			w.WriteHeader(500)
		}
	}))
	defer srv.Close()
	c, _ := newTestClient(t, srv)
	keys, err := Collect(c.Keys.List(context.Background(), ListOptions{}), 0)
	if err != nil || len(keys) != 1 || n.Load() != 1 {
		t.Fatalf("keys %d err %v requests %d", len(keys), err, n.Load())
	}
}

// TestPaginationErrorOnLaterPage: an error answer to a later page ends
// the list with that error, after the records read; a 404 ends it without
// one (a service paging by number may answer 404 past its last page), and
// when the service had announced that page, the pager cannot tell whether
// the list is whole and says so.
func TestPaginationErrorOnLaterPage(t *testing.T) {
	t.Parallel()
	for _, status := range []int{500, 404} {
		var n atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if n.Add(1) == 1 {
				w.Header().Set("Link", `</api/v2/repos?page=2>; rel="next"`)
				w.Write([]byte(`[{"id":1},{"id":2}]`))
				return
			}
			w.WriteHeader(status)
			w.Write([]byte(`{"error":"page gone"}`))
		}))
		defer srv.Close()
		c, _ := newTestClient(t, srv)
		var pages Pages
		repos, err := Collect(c.Repos.List(context.Background(), ListOptions{Pages: &pages}), 0)
		if status == 500 && (len(repos) != 2 || !HasStatus(err, 500)) {
			t.Errorf("500: %d repos, err %v", len(repos), err)
		}
		if status == 404 && (len(repos) != 2 || err != nil || pages.More() || !strings.Contains(pages.Unsure(), "404")) {
			t.Errorf("404: %d repos, err %v, more %v, unsure %q", len(repos), err, pages.More(), pages.Unsure())
		}
	}
}

func TestPaginationNextOnAnotherOriginIsNotFollowed(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var auth []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth = append(auth, r.Header.Get("Authorization"))
		mu.Unlock()
		w.Write([]byte(`[{"id":2}]`))
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth = append(auth, r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Link", "<"+other.URL+`/page2>; rel="next"`)
		w.Write([]byte(`[{"id":1}]`))
	}))
	defer srv.Close()
	c, _ := newTestClient(t, srv)
	// The other origin is asked nothing, with the token or without; the
	// list ends at the service's page, and Unsure says why.
	pages := &Pages{}
	repos, err := Collect(c.Repos.List(context.Background(), ListOptions{Pages: pages}), 0)
	if err != nil || len(repos) != 1 || pages.More() {
		t.Fatalf("%d repos, more %v, err %v", len(repos), pages.More(), err)
	}
	if len(auth) != 1 || auth[0] == "" {
		t.Fatalf("Authorization per request: %q", auth)
	}
	if want := "the service's next page is on another origin (" + other.URL + "), which forge does not follow"; pages.Unsure() != want {
		t.Errorf("Unsure = %q, want %q", pages.Unsure(), want)
	}
}

func TestNextLinkParsing(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		`<https://h/api/v2/repos?page=2>; rel="next"`:                "https://h/api/v2/repos?page=2",
		`<https://h/a?x=1,2>; rel="prev", <https://h/b>; rel="next"`: "https://h/b",
		`<https://h/b>; title="a, b"; rel="last next"`:               "https://h/b",
		`</api/v2/repos?page=3>; REL=next`:                           "https://h/api/v2/repos?page=3",
		`<https://h/api/v2/repos?page=9>; rel="last"`:                "",
		`garbage`: "",
		`<https://h/1>; rel="first",<https://h/2>;rel=next,<https://h/9>;rel=last`: "https://h/2",
	}
	base := mustURL("https://h/api/v2/repos")
	for in, want := range cases {
		h := http.Header{"Link": {in}}
		if got := nextLink(h, base); got != want {
			t.Errorf("%s: next = %q, want %q", in, got, want)
		}
	}
}

func TestTolerantDecoding(t *testing.T) {
	t.Parallel()
	// Wrong types, unknown fields, odd timestamps and a wrapped list must
	// not fail a record; the fields that do fit are kept.
	body := `{"total_count":2,"workflow_runs":[
	  {"id":"not-a-number","name":"ci","status":"completed","conclusion":"success","created_at":"2026-03-01 10:00:00","head":{"x":1},"new_field":[1,2]},
	  {"id":12,"name":"lint","run_number":"7","created_at":1767225600,"updated_at":"yesterday"}]}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }))
	defer srv.Close()
	c, _ := newTestClient(t, srv)
	runs, err := Collect(c.Actions.ListRuns(context.Background(), RepoName{"a", "b"}, RunListOptions{}), 0)
	if err != nil || len(runs) != 2 {
		t.Fatalf("%d runs, err %v", len(runs), err)
	}
	r0, r1 := runs[0], runs[1]
	if r0.ID != 0 || r0.Name != "ci" || r0.Conclusion != "success" || !r0.CreatedAt.Equal(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("run 0: %+v", r0)
	}
	if r1.ID != 12 || r1.RunNumber != 7 || // a number in a string is read
		!r1.CreatedAt.Equal(time.Unix(1767225600, 0)) || !r1.UpdatedAt.IsZero() {
		t.Errorf("run 1: %+v", r1)
	}
}

func TestTwoFactorSetupImageNames(t *testing.T) {
	t.Parallel()
	png := "iVBORw0KGgoAAAANSUhEUg==" // the PNG signature and the start of IHDR
	for _, field := range []string{"qr_png_base64", "qr_base64"} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, `{"secret":"JBSWY3DPEHPK3PXP","otpauth_url":"otpauth://totp/x","%s":"%s"}`, field, png)
		}))
		c, _ := newTestClient(t, srv)
		s, err := c.Account.SetupTwoFactor(context.Background())
		srv.Close()
		if err != nil {
			t.Fatal(err)
		}
		img, err := s.QRPNG()
		if err != nil || string(img[:8]) != "\x89PNG\r\n\x1a\n" || s.Secret != "JBSWY3DPEHPK3PXP" {
			t.Errorf("%s: img %q err %v", field, img, err)
		}
	}
	s := &TwoFactorSetup{QRBase64: "data:image/png;base64," + png}
	if _, err := s.QRPNG(); err != nil {
		t.Errorf("data URL: %v", err)
	}
	s = &TwoFactorSetup{QRBase64: "aGVsbG8="}
	if _, err := s.QRPNG(); err == nil {
		t.Error("a non-PNG was accepted")
	}
	if _, err := (&TwoFactorSetup{}).QRPNG(); err == nil {
		t.Error("no image was accepted")
	}
}

func TestLoginTwoFactorDetection(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name        string
		login       string
		stateStatus int
		stateBody   string
		want        bool
	}{
		{"login says so", `{"token":"t1","twofa_required":true}`, 500, ``, true},
		{"other spelling", `{"access_token":"t1","two_factor_required":true}`, 500, ``, true},
		{"state says enabled", `{"token":"t1"}`, 200, `{"twofa_enabled":true}`, true},
		{"state refuses with 2FA message", `{"token":"t1"}`, 401, `{"error":"two-factor verification required"}`, true},
		{"plain account", `{"token":"t1","twofa_required":false}`, 200, `{"twofa_enabled":false}`, false},
		{"no /me/state on this server", `{"token":"t1"}`, 404, `{"error":"not found"}`, false},
	}
	for _, tc := range cases {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/api/v2/auth/login":
				w.Write([]byte(tc.login))
			case "/api/v2/me/state":
				if r.Header.Get("Authorization") != "token t1" {
					w.WriteHeader(401)
					return
				}
				w.WriteHeader(tc.stateStatus)
				w.Write([]byte(tc.stateBody))
			}
		}))
		c, _ := newTestClient(t, srv, WithRetryPolicy(RetryPolicy{}))
		c = c.WithToken("")
		res, err := c.Account.Login(context.Background(), "alice", "pw")
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got, err := c.Account.NeedsTwoFactor(context.Background(), res)
		srv.Close()
		if err != nil || got != tc.want || res.Token != "t1" {
			t.Errorf("%s: needs 2FA = %v (err %v, token %q), want %v", tc.name, got, err, res.Token, tc.want)
		}
	}
}

func TestChangePasswordTooShortSendsNothing(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { n.Add(1) }))
	defer srv.Close()
	c, _ := newTestClient(t, srv)
	_, err := c.Account.ChangePassword(context.Background(), "old-password-1", "short")
	if err == nil || n.Load() != 0 {
		t.Fatalf("err %v, %d requests", err, n.Load())
	}
}

func TestParseRepoName(t *testing.T) {
	t.Parallel()
	if r, err := ParseRepoName("alice/demo.git"); err != nil || r != (RepoName{"alice", "demo"}) || r.path("issues", "3") != "/repos/alice/demo/issues/3" {
		t.Fatalf("%v %v", r, err)
	}
	for _, bad := range []string{"", "alice", "/demo", "alice/", "a/b/c"} {
		if _, err := ParseRepoName(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func mustURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}

func TestPageSize(t *testing.T) {
	for limit, want := range map[int]int{0: 0, -1: 0, 1: 1, 30: 30, 100: 100, 1000: 100} {
		if got := PageSize(limit); got != want {
			t.Errorf("PageSize(%d) = %d, want %d", limit, got, want)
		}
	}
}
