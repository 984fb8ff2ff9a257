package refserver_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
)

// With RateLimit 2, each token gets two requests a second: the third is
// 429 with Retry-After and the error shape; another token is not
// affected; a second later the token may go on. Git's basic auth counts
// against the same token.
func TestRateLimitPerToken(t *testing.T) {
	t.Parallel()
	c := &clock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	s := refservertest.Start(t, refservertest.Clock(c.Now), func(o *refserver.Options) { o.RateLimit = 2 })
	tok, err := s.Token("admin")
	if err != nil {
		t.Fatal(err)
	}
	other := login(t, s, "admin", refservertest.AdminPassword)
	c.Add(time.Second) // the login's own bucket refills
	want(t, call(t, s, "GET", "/me", tok, nil), 200)
	want(t, call(t, s, "GET", "/me", tok, nil), 200)
	r := want(t, call(t, s, "GET", "/me", tok, nil), 429)
	if r.header.Get("Retry-After") != "1" || !strings.Contains(r.str("error"), "rate limit of 2 requests per second") {
		t.Errorf("throttled answer %s, Retry-After %q", r.raw, r.header.Get("Retry-After"))
	}
	req, _ := http.NewRequest("GET", s.URL()+"/admin/none.git/info/refs?service=git-upload-pack", nil)
	req.SetBasicAuth("x", tok)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 429 {
		t.Errorf("git request with the throttled token: %d", res.StatusCode)
	}
	want(t, call(t, s, "GET", "/me", other, nil), 200)
	c.Add(500 * time.Millisecond)
	want(t, call(t, s, "GET", "/me", tok, nil), 200)
	want(t, call(t, s, "GET", "/me", tok, nil), 429)
}

// Without RateLimit nothing is throttled.
func TestRateLimitOffByDefault(t *testing.T) {
	t.Parallel()
	s := refservertest.Start(t)
	tok := login(t, s, "admin", refservertest.AdminPassword)
	for i := 0; i < 200; i++ {
		want(t, call(t, s, "GET", "/me", tok, nil), 200)
	}
}
