package refserver_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
)

// postPush sends body to alice/app's receive-pack and returns the status
// and the answer.
func postPush(t *testing.T, s *refserver.Server, token string, body io.Reader, gz bool) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", s.URL()+"/alice/app.git/git-receive-pack", body)
	req.Header.Set("Authorization", "token "+token)
	req.Header.Set("Content-Type", "application/x-git-receive-pack-request")
	if gz {
		req.Header.Set("Content-Encoding", "gzip")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestGzipPushInflationIsBounded: a gzip-encoded push that inflates
// more than ten times over (64 MiB of zeros in 64 KB) is refused with
// 413 once past that, instead of being spooled whole (up to 2 GiB).
func TestGzipPushInflationIsBounded(t *testing.T) {
	t.Parallel()
	s := refservertest.Start(t)
	alice := mustUser(t, s, "alice", "alice-password-123", "")
	want(t, call(t, s, "POST", "/repos", alice, map[string]any{"name": "app", "auto_init": true}), 201)
	var bomb bytes.Buffer
	z, _ := gzip.NewWriterLevel(&bomb, gzip.BestCompression)
	zeros := make([]byte, 1<<20)
	for i := 0; i < 64; i++ {
		z.Write(zeros)
	}
	z.Close()
	size := bomb.Len()
	status, body := postPush(t, s, alice, &bomb, true)
	if status != http.StatusRequestEntityTooLarge || !strings.Contains(body, "inflates to more than 10 times its size") {
		t.Errorf("a %d-byte gzip bomb: %d %s", size, status, body)
	}
}

// TestPushSpoolIsBoundedInAll: the pushes being received at once hold at
// most MaxPushSpool bytes together: while one push holds most of it, the
// next is answered 503 with Retry-After; once the first is done, the
// budget is back.
func TestPushSpoolIsBoundedInAll(t *testing.T) {
	t.Parallel()
	s := refservertest.Start(t, func(o *refserver.Options) { o.MaxPushSpool = 3 << 20 })
	alice := mustUser(t, s, "alice", "alice-password-123", "")
	want(t, call(t, s, "POST", "/repos", alice, map[string]any{"name": "app", "auto_init": true}), 201)

	// A push that sends 2.5 MiB and then holds its connection.
	pr, pw := io.Pipe()
	first := make(chan int)
	go func() {
		status, _ := postPush(t, s, alice, pr, false)
		first <- status
	}()
	go pw.Write(make([]byte, 5<<19))
	// Its bytes are in the server's spool before the next push starts: a
	// push sent earlier could take the budget first and leave the first
	// refused while its body is still open (it then hangs: the server
	// drains the rest of a body it refused before answering).
	waitFor(t, "the first push's 2.5 MiB in its spool", func() bool { return s.PushesHeld() >= 5<<19 })

	// Another push of 600 KB: refused, the server saying when to try again.
	status, body := postPush(t, s, alice, bytes.NewReader(make([]byte, 600<<10)), false)
	if status != http.StatusServiceUnavailable {
		t.Fatalf("second push: %d %s", status, body)
	}
	if !strings.Contains(body, "receiving 3 MiB of pushes at once") {
		t.Errorf("503 says %q", body)
	}
	pw.Close() // the first push ends (a malformed one: 400)
	if got := <-first; got != http.StatusBadRequest {
		t.Errorf("first push: %d", got)
	}
	// Its budget is given back as its handler returns.
	for status == http.StatusServiceUnavailable {
		status, body = postPush(t, s, alice, bytes.NewReader(make([]byte, 600<<10)), false)
	}
	if status != http.StatusBadRequest {
		t.Errorf("a push after the first ended: %d %s", status, body)
	}
}
