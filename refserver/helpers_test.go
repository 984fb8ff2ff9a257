package refserver_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/forgehq/forge/refserver"
)

// clock is a settable clock for Options.Now.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// resp is a decoded response.
type resp struct {
	status int
	header http.Header
	raw    []byte
	obj    map[string]any
	arr    []any
}

func (r resp) str(key string) string {
	v, _ := r.obj[key].(string)
	return v
}

// call sends a request to the REST API; body is a Go value sent as JSON,
// or a string sent as is.
func call(t *testing.T, s *refserver.Server, method, path, token string, body any) resp {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	url := path
	if !strings.HasPrefix(path, "http") {
		url = s.BaseURL() + path
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "token "+token)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	r := resp{status: res.StatusCode, header: res.Header, raw: raw}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		if len(raw) > 0 && raw[0] == '[' {
			if err := json.Unmarshal(raw, &r.arr); err != nil {
				t.Fatalf("%s %s: bad JSON %q: %v", method, path, raw, err)
			}
		} else if err := json.Unmarshal(raw, &r.obj); err != nil {
			t.Fatalf("%s %s: bad JSON %q: %v", method, path, raw, err)
		}
	}
	return r
}

// want fails the test unless r has the status; for errors it also checks
// the body is the Error shape.
func want(t *testing.T, r resp, status int) resp {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d; body %s", r.status, status, r.raw)
	}
	if status >= 400 {
		if len(r.obj) != 1 || r.str("error") == "" {
			t.Fatalf("error body %s is not {\"error\": ...}", r.raw)
		}
	}
	return r
}

func login(t *testing.T, s *refserver.Server, user, pw string) string {
	t.Helper()
	r := want(t, call(t, s, "POST", "/auth/login", "", map[string]string{"username": user, "password": pw}), 200)
	return r.str("token")
}

func mustUser(t *testing.T, s *refserver.Server, login, pw, role string) string {
	t.Helper()
	if _, err := s.CreateUser(login, pw, role); err != nil {
		t.Fatal(err)
	}
	tok, err := s.Token(login)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func itoa(n int) string { return strconv.Itoa(n) }
