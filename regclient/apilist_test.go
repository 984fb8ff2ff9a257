package regclient

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestAPIListPageBound: a registry whose every /api/tags page links to a
// new one: forge stops after maxAPIPages and says so, rather than read on
// or pass a part for the whole list.
func TestAPIListPageBound(t *testing.T) {
	defer func(n int) { maxAPIPages = n }(maxAPIPages)
	maxAPIPages = 3
	pages := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pages++
		w.Header().Set("Link", fmt.Sprintf(`<%s?page=%d>; rel="next"`, r.URL.Path, pages+1))
		fmt.Fprintf(w, `["t%d"]`, pages)
	}))
	defer srv.Close()
	c, err := New(Options{RegistryURL: srv.URL, Username: "alice", Password: "pw", Service: true})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = c.AdminCatalog(context.Background())
	if err == nil || !strings.Contains(err.Error(), "past 3 pages") || pages != 3 {
		t.Errorf("%d pages read, err %v", pages, err)
	}
}
