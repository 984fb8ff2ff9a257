package servicefixture_test

import (
	"context"
	"crypto/sha256"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/forgehq/forge/app/agentctx"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/testkit/clitest"
	"github.com/forgehq/forge/testkit/servicefixture"
)

var bigStyles = map[string]servicefixture.BigFiles{
	"empty content": servicefixture.EmptyContent,
	"403":           servicefixture.Refused,
	"null content":  servicefixture.NullContent,
}

// TestBigFilesTheWayGitHubSendsThem: a service that answers a file past
// its inline limit as GitHub does — a file object without its content
// (encoding "none"), or a 403 in GitHub's words — and gives the bytes
// only for GitHub's raw media type. forge prints them exactly piped,
// refuses binary and sanitizes text on a terminal, gives --json's one
// line, and shows a real 403 as it came. A service that ignores the raw
// media type (Gitea: content null, the bytes at .../raw/PATH) too. On
// main the empty content printed nothing with exit 0 and the 403 was the
// error.
func TestBigFilesTheWayGitHubSendsThem(t *testing.T) {
	for name, style := range bigStyles {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, h := against(t, servicefixture.Options{BigFiles: style})
			size := " (3145728 bytes)"
			if style == servicefixture.Refused {
				size = "" // the raw answer did not say
			}
			for _, f := range []string{"big.bin", "big.txt"} {
				r := h.Run(clitest.Run{}, "repo", "contents", f)
				if want := servicefixture.BigFile(f); r.Code != 0 || sha256.Sum256([]byte(r.Out)) != sha256.Sum256(want) {
					t.Fatalf("%s piped: exit %d, %d bytes of %d\n%.300s", f, r.Code, len(r.Out), len(want), r.Err)
				}
			}
			r := h.Run(clitest.Run{TTY: true}, "repo", "contents", "big.bin")
			if r.Code != 1 || r.Out != "" || r.Err != "forge: big.bin is a binary file"+size+"; save it with `forge repo contents big.bin > FILE`\n" {
				t.Errorf("big.bin on a terminal: exit %d\n%s", r.Code, r.Output())
			}
			r = h.Run(clitest.Run{TTY: true}, "repo", "contents", "big.txt")
			if r.Code != 0 || r.Out != text.Sanitize(string(servicefixture.BigFile("big.txt"))) {
				t.Errorf("big.txt on a terminal: exit %d, %d bytes\n%s", r.Code, len(r.Out), r.Err)
			}
			r = h.Run(clitest.Run{}, "repo", "contents", "big.txt", "--json", "content")
			if r.Code != 1 || r.Out != "" || r.Err != "forge: big.txt is too large for the service to send inline"+size+", so --json has no content for it: print it without --json, or save it with `forge repo contents big.txt > FILE`\n" {
				t.Errorf("--json: exit %d\n%s", r.Code, r.Output())
			}
			// A refusal that the raw read gets too is shown as it came.
			r = h.Run(clitest.Run{}, "repo", "contents", "denied.txt")
			if r.Code == 0 || !strings.Contains(r.Err, "Resource not accessible by integration") || strings.Count(strings.TrimSpace(r.Err), "\n") != 0 {
				t.Errorf("denied.txt: exit %d\n%s", r.Code, r.Output())
			}
		})
	}
}

// TestBigFilesElsewhere: attaching a big file to a chat says it is too
// large (on main an empty content was attached as an empty file), and
// browse finds its page.
func TestBigFilesElsewhere(t *testing.T) {
	for name, style := range bigStyles {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s, h := against(t, servicefixture.Options{BigFiles: style})
			c, err := client.New(s.BaseURL, s.Token)
			if err != nil {
				t.Fatal(err)
			}
			_, err = agentctx.Build(context.Background(), c, client.RepoName{Owner: "alice", Name: "app"}, "file:big.txt", agentctx.Options{})
			want := "file:big.txt: big.txt is 3145728 bytes; forge attaches files of up to 1048576"
			if style == servicefixture.Refused {
				want = "file:big.txt: big.txt is over 1048576 bytes; forge attaches files of up to 1048576"
			}
			if err == nil || err.Error() != want {
				t.Errorf("attach: %v, want %q", err, want)
			}
			r := h.Run(clitest.Run{}, "browse", "-n", "big.bin")
			if r.Code != 0 || r.Out != s.URL+"/alice/app/blob/main/big.bin\n" { // from the listing
				t.Errorf("browse: exit %d\n%s", r.Code, r.Output())
			}
		})
	}
}

// TestRawReadRedirectedElsewhere: a service that answers the raw read
// with a redirect to a storage host of another origin (as GitHub may):
// forge follows it without the token and prints the bytes.
func TestRawReadRedirectedElsewhere(t *testing.T) {
	var auth atomic.Value
	auth.Store("unset")
	storage := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth.Store(r.Header.Get("Authorization"))
		w.Write(servicefixture.BigFile("big.bin"))
	}))
	t.Cleanup(storage.Close)
	fix := servicefixture.New(t, servicefixture.Options{BigFiles: servicefixture.Refused})
	service := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.Header.Get("Accept"), "raw") {
			http.Redirect(w, r, storage.URL+"/blob/big.bin", http.StatusFound)
			return
		}
		fix.Config.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(service.Close)
	h := clitest.Against(t, service.URL+"/api/v2", fix.Token)
	r := h.Run(clitest.Run{}, "repo", "contents", "big.bin", "-R", "alice/app")
	if r.Code != 0 || sha256.Sum256([]byte(r.Out)) != sha256.Sum256(servicefixture.BigFile("big.bin")) {
		t.Fatalf("exit %d, %d bytes\n%s", r.Code, len(r.Out), r.Err)
	}
	if a := auth.Load(); a != "" {
		t.Fatalf("the storage host got Authorization %q", a)
	}
}

// TestRawReadCutShort: a raw answer that stops before its Content-Length
// (a connection lost halfway) fails with one line naming the file.
func TestRawReadCutShort(t *testing.T) {
	fix := servicefixture.New(t, servicefixture.Options{BigFiles: servicefixture.EmptyContent})
	service := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.Header.Get("Accept"), "raw") {
			w.Header().Set("Content-Length", "3145728")
			w.Write(servicefixture.BigFile("big.bin")[:1<<20])
			panic(http.ErrAbortHandler) // the connection drops
		}
		fix.Config.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(service.Close)
	h := clitest.Against(t, service.URL+"/api/v2", fix.Token)
	r := h.Run(clitest.Run{}, "repo", "contents", "big.bin", "-R", "alice/app")
	if r.Code != 1 || r.Err != "forge: reading big.bin from the service: unexpected EOF; the file came cut short\n" {
		t.Fatalf("exit %d, %d bytes\n%s", r.Code, len(r.Out), r.Err)
	}
}
