package rest

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/forgehq/forge/refserver/store"
)

// TestIssueCacheMatchesWriteJSON: a list written from cached encodings is
// byte for byte what writeJSON writes for the same issues.
func TestIssueCacheMatchesWriteJSON(t *testing.T) {
	r := httptest.NewRequest("GET", "http://127.0.0.1:9/api/v2/repos/a/b/issues", nil)
	x := access{repo: store.Repo{Owner: "a", Name: "b"}}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	issues := []store.Issue{
		{ID: 1, Number: 2, Title: `Quote " and <tag> & é`, Body: "line\nline", State: "open", Author: "a", CreatedAt: at, UpdatedAt: at, Rev: 1},
		{ID: 2, Number: 1, Title: "Closed", State: "closed", Author: "b", Comments: 3, CreatedAt: at, UpdatedAt: at, ClosedAt: &at, Rev: 4},
	}
	for _, list := range [][]store.Issue{nil, issues[:1], issues} {
		views := make([]issueJSON, len(list))
		for k, i := range list {
			views[k] = issueView(r, x, i)
		}
		w := httptest.NewRecorder()
		writeJSON(w, 200, views)
		var c issueCache
		for range 2 { // encoded, then from the cache
			if got := string(c.list(r, x, list)); got != w.Body.String() {
				t.Fatalf("cached list\n%s\nwant\n%s", got, w.Body.String())
			}
		}
	}
}
