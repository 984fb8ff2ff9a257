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

// Guard strips the header from a request a redirect sent to another
// origin, whoever set it (go-containerregistry sets it in its own
// transport, above the one forge gives it).
func TestGuard(t *testing.T) {
	var got []string
	rt := Guard(roundTripFunc(func(r *http.Request) (*http.Response, error) {
		got = append(got, r.URL.Host+" "+r.Header.Get("Authorization"))
		return &http.Response{StatusCode: 200, Body: http.NoBody, Request: r}, nil
	}))
	first, _ := http.NewRequest("GET", "http://127.0.0.1:5000/v2/x/blobs/sha256:1", nil)
	hop := func(prev *http.Request, to string) *http.Request {
		r, _ := http.NewRequest("GET", to, nil)
		r.Header.Set("Authorization", "Bearer reg-token")
		r.Response = &http.Response{Request: prev}
		return r
	}
	same := hop(first, "http://127.0.0.1:5000/other")
	other := hop(same, "http://127.0.0.1:5001/blob")
	for _, r := range []*http.Request{same, other} {
		if _, err := rt.RoundTrip(r); err != nil {
			t.Fatal(err)
		}
	}
	if got[0] != "127.0.0.1:5000 Bearer reg-token" || got[1] != "127.0.0.1:5001 " {
		t.Errorf("sent %q", got)
	}
	if other.Header.Get("Authorization") == "" {
		t.Error("Guard changed the caller's request")
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestSameHost(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"127.0.0.1:5000", "127.0.0.1:5000", true},
		{"Registry.Example.com", "registry.example.com", true},
		{"localhost:5000", "127.0.0.1:5000", true},
		{"[::1]:5000", "localhost:5000", true},
		{"127.0.0.1:5000", "[::1]:5000", true},
		{"localhost", "127.0.0.1", true},
		{"localhost:5000", "127.0.0.1:5001", false},
		{"localhost:5000", "127.0.0.1", false},
		{"registry.example.com:5000", "127.0.0.1:5000", false},
		{"registry.example.com", "mirror.example.com", false},
		{"localhost.example.com:5000", "localhost:5000", false},
		{"", "", false},
	} {
		if got := SameHost(c.a, c.b); got != c.same {
			t.Errorf("SameHost(%q, %q) = %v", c.a, c.b, got)
		}
	}
}
