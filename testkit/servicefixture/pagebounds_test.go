package servicefixture_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/testkit/clitest"
)

// TestNextPageOnAnotherOriginIsNotFollowed: a list whose next page a
// service (hostile, or misconfigured) puts on another origin. forge reads
// the service's page, asks the other origin nothing (no token, no request)
// and says on stderr why the list may go on; what it prints is the
// service's page alone, valid JSON.
func TestNextPageOnAnotherOriginIsNotFollowed(t *testing.T) {
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
		w.Write([]byte(`{"not":"a list"}`))
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Link", `<`+other.URL+`/api/v2/repos/alice/app/issues?page=2>; rel="next"`)
		w.Write([]byte(`[{"number":1,"title":"one","state":"open","user":{"login":"alice"}}]`))
	}))
	defer srv.Close()
	h := clitest.Against(t, srv.URL+"/api/v2", "some-token-value")
	h.Env["FORGE_REPO"] = "alice/app"
	for _, args := range [][]string{
		{"api", "--paginate", "repos/alice/app/issues"},
		{"issue", "list", "--paginate", "--json", "number"},
	} {
		r := h.Run(clitest.Run{}, args...)
		var got []map[string]any
		if err := json.Unmarshal([]byte(r.Out), &got); r.Code != 0 || err != nil || len(got) != 1 {
			t.Errorf("forge %s: exit %d, %v:\n%s", strings.Join(args, " "), r.Code, err, r.Output())
		}
		if !strings.Contains(r.Err, "next page is on another origin ("+other.URL+"), which forge does not follow") {
			t.Errorf("forge %s: stderr %q", strings.Join(args, " "), r.Err)
		}
	}
	if n := elsewhere.Load(); n != 0 {
		t.Errorf("the other origin was asked %d times", n)
	}
}

// TestEndlessNextChainStops: a service whose every page links to another
// (a new cursor each time, never the same page twice). forge reads
// client.MaxPages pages and stops, saying so.
func TestEndlessNextChainStops(t *testing.T) {
	var asked atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		n, _ := strconv.Atoi(r.URL.Query().Get("cursor"))
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Link", fmt.Sprintf(`</api/v2/repos/alice/app/issues?cursor=%d>; rel="next"`, n+1))
		fmt.Fprintf(w, `[{"number":%d,"title":"t","state":"open","user":{"login":"alice"}}]`, n+1)
	}))
	defer srv.Close()
	h := clitest.Against(t, srv.URL+"/api/v2", "some-token-value")
	r := h.Run(clitest.Run{}, "api", "--paginate", "repos/alice/app/issues")
	var got []map[string]any
	if err := json.Unmarshal([]byte(r.Out), &got); r.Code != 0 || err != nil || len(got) != client.MaxPages || int(asked.Load()) != client.MaxPages {
		t.Fatalf("exit %d, %d records from %d requests, %v; want %d of each", r.Code, len(got), asked.Load(), err, client.MaxPages)
	}
	if want := fmt.Sprintf("forge reads at most %d pages of one list", client.MaxPages); !strings.Contains(r.Err, want) {
		t.Errorf("stderr %q; want it to say %q", r.Err, want)
	}
}
