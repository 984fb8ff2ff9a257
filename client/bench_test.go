package client_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/refserver/refservertest"
)

// BenchmarkMeAndState is the work of `forge auth status` after start-up:
// GET /me and GET /me/state over one kept-alive connection to a reference
// server on loopback.
func BenchmarkMeAndState(b *testing.B) {
	srv := refservertest.Start(b)
	anon, _ := client.New(srv.BaseURL(), "")
	res, err := anon.Account.Login(context.Background(), srv.AdminUser(), srv.AdminPassword())
	if err != nil {
		b.Fatal(err)
	}
	c := anon.WithToken(res.Token)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Account.Me(ctx); err != nil {
			b.Fatal(err)
		}
		if _, err := c.Account.State(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkListDecode measures decoding a page of 100 issues into typed
// records, each keeping its raw JSON. The server says the list holds 100
// (X-Total-Count): without a Link or a total, a full page is followed by
// one more request to learn whether more exist.
func BenchmarkListDecode(b *testing.B) {
	var page []map[string]any
	for i := 1; i <= 100; i++ {
		page = append(page, map[string]any{"id": i, "number": i, "title": fmt.Sprintf("issue %d", i), "body": "some body text",
			"state": "open", "user": map[string]any{"login": "alice", "id": 2}, "comments": 3,
			"created_at": "2026-11-22T10:00:00Z", "html_url": "http://h/alice/demo/issues/1"})
	}
	body, _ := json.Marshal(page)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Total-Count", "100")
		w.Write(body)
	}))
	defer srv.Close()
	c, _ := client.New(srv.URL+"/api/v2", "t")
	ctx := context.Background()
	repo := client.RepoName{Owner: "alice", Name: "demo"}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		issues, err := client.Collect(c.Issues.List(ctx, repo, client.IssueListOptions{}), 0)
		if err != nil || len(issues) != 100 {
			b.Fatal(len(issues), err)
		}
	}
}
