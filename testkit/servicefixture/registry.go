package servicefixture

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/remote"
)

// Registry is how the fixture's registry answers its listings, /api/tags
// and /api/catalog (for alice, with Password). The registry protocol
// (/v2/) is go-containerregistry's in-memory registry, without auth: push
// to it with Server.Push.
type Registry int

const (
	// RegistryObjects: one answer, each tag {"name": ...}, each
	// repository {"name": ..., "tags": [...]}.
	RegistryObjects Registry = iota
	// RegistryStrings: one answer, each entry a plain string.
	RegistryStrings
	// RegistryLinked: tags 5 a page, Link rel="next" (relative) to the
	// next.
	RegistryLinked
	// RegistryLinkedElsewhere: as RegistryLinked, the link naming another
	// origin (the same server as localhost).
	RegistryLinkedElsewhere
)

// Push writes a small random image to repo (e.g. "alice/app") under each
// tag.
func (s *Server) Push(t testing.TB, repo string, tags ...string) {
	t.Helper()
	img, err := random.Image(256, 1)
	if err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(s.URL, "http://")
	for _, tag := range tags {
		ref, err := name.NewTag(host+"/"+repo+":"+tag, name.Insecure)
		if err != nil {
			t.Fatal(err)
		}
		if err := remote.Write(ref, img); err != nil {
			t.Fatal(err)
		}
	}
}

// registryList answers /api/tags/REPO and /api/catalog as
// Options.Registry says, from what the registry protocol holds.
func (s *Server) registryList(w http.ResponseWriter, r *http.Request, path string) {
	if u, p, ok := r.BasicAuth(); !ok || u != Login || p != Password {
		s.json(w, 401, map[string]any{"error": "authentication required"})
		return
	}
	var entries []any
	if path == "/api/catalog" {
		var cat struct{ Repositories []string }
		s.protocol("/v2/_catalog", &cat)
		for _, repo := range cat.Repositories {
			var tl struct{ Tags []string }
			s.protocol("/v2/"+repo+"/tags/list", &tl)
			entries = append(entries, s.entry(repo, map[string]any{"name": repo, "tags": tl.Tags}))
		}
	} else {
		var tl struct{ Tags []string }
		if !s.protocol("/v2/"+strings.TrimPrefix(path, "/api/tags/")+"/tags/list", &tl) {
			s.json(w, 404, map[string]any{"error": "repository not found"})
			return
		}
		for _, tag := range tl.Tags {
			entries = append(entries, s.entry(tag, map[string]any{"name": tag}))
		}
	}
	if s.opts.Registry != RegistryLinked && s.opts.Registry != RegistryLinkedElsewhere {
		s.json(w, 200, entries)
		return
	}
	const per = 5
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	page = max(page, 1)
	lo := min((page-1)*per, len(entries))
	hi := min(lo+per, len(entries))
	if hi < len(entries) {
		next := fmt.Sprintf("%s?page=%d", path, page+1)
		if s.opts.Registry == RegistryLinkedElsewhere {
			next = strings.Replace(s.URL, "127.0.0.1", "localhost", 1) + next
		}
		w.Header().Set("Link", fmt.Sprintf(`<%s>; rel="next"`, next))
	}
	s.json(w, 200, entries[lo:hi])
}

// entry is one entry of a listing: obj, or its name alone
// (RegistryStrings).
func (s *Server) entry(name string, obj map[string]any) any {
	if s.opts.Registry == RegistryStrings {
		return name
	}
	return obj
}

// protocol asks the registry protocol for path and decodes its answer
// into v; false when it did not answer 200.
func (s *Server) protocol(path string, v any) bool {
	rec := httptest.NewRecorder()
	s.reg.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	return rec.Code == 200 && json.Unmarshal(rec.Body.Bytes(), v) == nil
}
