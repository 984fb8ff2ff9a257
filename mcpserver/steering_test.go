package mcpserver

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/forgehq/forge/mcpserver/mcpservertest"
)

// requestLog sits in front of the reference server and records the path
// of every request forge makes.
type requestLog struct {
	mu    sync.Mutex
	paths []string
}

func (l *requestLog) front(t *testing.T, h *mcpservertest.World) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.paths = append(l.paths, r.URL.EscapedPath())
		l.mu.Unlock()
		h.Srv.Handler().ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	h.Env["FORGE_BASE_URL"] = strings.Replace(h.Srv.BaseURL(), h.Srv.URL(), srv.URL, 1)
}

func (l *requestLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.paths...)
}

// TestPathsStayInTheRepository: a path or repository with a "." or ".."
// segment is refused before any request; nothing reaches another
// endpoint than the repository's contents. On main
// "../../../../admin/users" read the admin endpoint with the user's
// token and "../../infra/contents" another repository.
func TestPathsStayInTheRepository(t *testing.T) {
	h := mcpservertest.NewWorld(t)
	log := &requestLog{}
	log.front(t, h)
	s := serve(t, h)
	var ok Contents
	s.Call("repo_contents", map[string]any{"path": "README.md"}, &ok)
	for _, bad := range []map[string]any{
		{"path": "../../../../admin/users"}, {"path": "../releases"}, {"path": "../../infra/contents"},
		{"path": "docs/./../../x"}, {"path": ".."}, {"path": "/../x/"}, {"repo": "../admin", "path": "x"}, {"repo": "alice/..", "path": "x"},
	} {
		msg := s.Fail("repo_contents", bad)
		if !strings.Contains(msg, `"." or ".."`) && !strings.Contains(msg, "give it as OWNER/REPO") {
			t.Errorf("%v: %q", bad, msg)
		}
	}
	for _, p := range log.all() {
		if !strings.HasSuffix(p, "/repos/alice/demo/contents/README.md") && !strings.HasSuffix(p, "/repos/alice/demo/collaborators") {
			t.Errorf("a request left the contents endpoint: %s", p)
		}
	}
	if len(log.all()) == 0 {
		t.Error("the request log saw nothing")
	}
}
