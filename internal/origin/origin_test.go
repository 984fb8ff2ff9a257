package origin

import (
	"net/http"
	"net/url"
	"testing"
)

func TestSame(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"https://forge.example.com/api/v2", "https://FORGE.example.com:443/x", true},
		{"http://127.0.0.1:8080/api/v2", "http://127.0.0.1:8080", true},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8081", false},
		{"https://forge.example.com", "http://forge.example.com", false},
		{"https://forge.example.com", "https://a.forge.example.com", false},
		{"http://[::1]:80/", "http://[::1]", true},
		{"", "", false},
		{"ftp://x", "ftp://x", false},
	} {
		if got := SameString(c.a, c.b); got != c.same {
			t.Errorf("SameString(%q, %q) = %v", c.a, c.b, got)
		}
	}
}

func TestCheckRedirect(t *testing.T) {
	first, _ := http.NewRequest("GET", "http://127.0.0.1:8080/a", nil)
	for _, c := range []struct {
		to   string
		keep bool
	}{
		{"http://127.0.0.1:8080/b", true},
		{"http://127.0.0.1:9090/b", false},
		{"https://127.0.0.1:8080/b", false},
	} {
		req := &http.Request{URL: mustParse(c.to), Header: http.Header{"Authorization": {"token x"}}}
		if err := CheckRedirect(req, []*http.Request{first}); err != nil {
			t.Fatal(err)
		}
		if kept := req.Header.Get("Authorization") != ""; kept != c.keep {
			t.Errorf("redirect to %s: Authorization kept %v", c.to, kept)
		}
	}
	if CheckRedirect(first, make([]*http.Request, MaxRedirects)) == nil {
		t.Error("no limit on redirects")
	}
}

func mustParse(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}
