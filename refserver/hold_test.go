package refserver_test

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
)

// TestGitPushLargerThanPostBuffer pushes a 3 MB file of random bytes with
// the stock git client: past http.postBuffer (1 MiB) git first sends a
// 4-byte "0000" probe POST and stops unless it gets a 200.
func TestGitPushLargerThanPostBuffer(t *testing.T) {
	needGit(t)
	t.Parallel()
	s := refservertest.Start(t)
	alice := mustUser(t, s, "alice", "alice-password-123", "")
	want(t, call(t, s, "POST", "/repos", alice, map[string]any{"name": "big", "auto_init": true}), 201)
	u, _ := url.Parse(s.URL() + "/alice/big.git")
	u.User = url.UserPassword("x", alice)
	work := t.TempDir()
	mustGit(t, work, "clone", "-q", u.String(), "big")
	dir := filepath.Join(work, "big")
	data := make([]byte, 3<<20)
	rand.Read(data)
	if err := os.WriteFile(filepath.Join(dir, "blob.bin"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	mustGit(t, dir, "add", ".")
	mustGit(t, dir, "commit", "-q", "-m", "Add a 3 MB file")
	mustGit(t, dir, "push", "-q", "origin", "main")
	r := want(t, call(t, s, "GET", "/repos/alice/big/contents", alice, nil), 200)
	found := false
	for _, e := range r.arr {
		if m := e.(map[string]any); m["name"] == "blob.bin" && m["size"] == float64(3<<20) {
			found = true
		}
	}
	if !found {
		t.Fatalf("blob.bin not listed after the push: %s", r.raw)
	}
}

// TestLockoutHoldsUnderConcurrentBursts sends bursts of concurrent logins
// for one account: in a burst of wrong passwords at most the threshold
// (5) may be checked (401), every other one is refused with 429, and the
// right password after it too. In a burst with the right password among
// them, a success resets the count as it does one login at a time: at
// most 5 wrong ones checked before it and 5 after; without a success, the
// right one was refused with 429.
func TestLockoutHoldsUnderConcurrentBursts(t *testing.T) {
	t.Parallel()
	s := refservertest.Start(t)
	const burst = 40
	for round := 0; round < 3; round++ {
		user := "victim" + itoa(round)
		mustUser(t, s, user, "right-password-123", "")
		statuses := make(chan int, burst)
		gate := make(chan struct{})
		var wg sync.WaitGroup
		for i := 0; i < burst; i++ {
			pw := "wrong-password-" + itoa(i)
			if round > 0 && i == burst/2 {
				pw = "right-password-123"
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				body, _ := json.Marshal(map[string]string{"username": user, "password": pw})
				<-gate
				res, err := http.Post(s.BaseURL()+"/auth/login", "application/json", bytes.NewReader(body))
				if err != nil {
					t.Error(err)
					return
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				statuses <- res.StatusCode
			}()
		}
		close(gate)
		wg.Wait()
		close(statuses)
		count := map[int]int{}
		for st := range statuses {
			count[st]++
		}
		if count[401] > 5*(1+count[200]) || count[401]+count[200]+count[429] != burst {
			t.Errorf("burst %d: %v: %d wrong passwords checked, want at most 5 (per success) and the rest 429", round, count, count[401])
		}
		if count[200] == 0 {
			want(t, call(t, s, "POST", "/auth/login", "", map[string]string{"username": user, "password": "right-password-123"}), 429)
		}
	}
}

// TestURLsComeFromThePublicURL: with a forged Host header, every URL in
// an answer (Link, clone_url, html_url, ssh_url, the registry's realm)
// still names the public URL, or by default the listen address.
func TestURLsComeFromThePublicURL(t *testing.T) {
	t.Parallel()
	for _, public := range []string{"", "https://forge.example.com"} {
		s := refservertest.Start(t, func(o *refserver.Options) { o.PublicURL = public })
		if public == "" {
			public = s.URL()
		}
		alice := mustUser(t, s, "alice", "alice-password-123", "")
		for i := 0; i < 3; i++ {
			want(t, call(t, s, "POST", "/repos", alice, map[string]any{"name": "app" + itoa(i), "auto_init": true}), 201)
		}
		want(t, call(t, s, "POST", "/repos/alice/app0/issues", alice, map[string]any{"title": "t"}), 201)
		get := func(path, token string) (*http.Response, string) {
			req, _ := http.NewRequest("GET", s.URL()+path, nil)
			req.Host = "evil.example"
			if token != "" {
				req.Header.Set("Authorization", "token "+token)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			return res, string(b)
		}
		for _, path := range []string{"/api/v2/repos?per_page=1&page=2", "/api/v2/repos/alice/app0", "/api/v2/me",
			"/api/v2/repos/alice/app0/issues", "/api/v2/repos/alice/app0/contents", "/api/v2/repos/alice/app0/commits", "/v2/"} {
			res, body := get(path, alice)
			all := body + res.Header.Get("Link") + res.Header.Get("WWW-Authenticate")
			if strings.Contains(all, "evil") || !strings.Contains(all, strings.TrimPrefix(public, "https://")) {
				t.Errorf("%s with Host evil.example (public %s): %d %s\nLink %q\nWWW-Authenticate %q", path, public, res.StatusCode, body,
					res.Header.Get("Link"), res.Header.Get("WWW-Authenticate"))
			}
		}
	}
	if _, err := refserver.New(refserver.Options{PublicURL: "ftp://x/y"}); err == nil {
		t.Error("an ftp public URL with a path was accepted")
	}
}
