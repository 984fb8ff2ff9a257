package refserver_test

import (
	"fmt"
	"io"
	"net/http"
	"runtime"
	"testing"

	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
)

// benchServer starts a server with alice, her repo alice/app holding 1,000
// issues, and a keep-alive client.
func benchServer(b *testing.B) (*refserver.Server, string, *http.Client) {
	s := refservertest.Start(b)
	if _, err := s.CreateUser("alice", "alice-password-123", ""); err != nil {
		b.Fatal(err)
	}
	tok, _ := s.Token("alice")
	if _, err := s.CreateRepo("alice", "app", refserver.RepoOptions{}); err != nil {
		b.Fatal(err)
	}
	for i := 1; i <= 1000; i++ {
		if _, err := s.CreateIssue("alice/app", "", fmt.Sprintf("Issue %d", i), "Something is wrong."); err != nil {
			b.Fatal(err)
		}
	}
	return s, tok, &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
}

func benchGet(b *testing.B, url string) {
	s, tok, c := benchServer(b)
	_ = s
	get := func() {
		req, _ := http.NewRequest("GET", url, nil)
		req.URL.Host = s.URL()[len("http://"):]
		req.Header.Set("Authorization", "token "+tok)
		res, err := c.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			b.Fatalf("status %d", res.StatusCode)
		}
	}
	for i := 0; i < 100; i++ {
		get()
	}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	g0 := runtime.NumGoroutine()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			get()
		}
	})
	b.StopTimer()
	c.CloseIdleConnections()
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(runtime.NumGoroutine()-g0), "goroutines-delta")
	b.ReportMetric(float64(int64(after.HeapInuse)-int64(before.HeapInuse))/1024, "heap-delta-KiB")
}

// BenchmarkGetMe: GET /api/v2/me over loopback HTTP with keep-alive.
func BenchmarkGetMe(b *testing.B) { benchGet(b, "http://host/api/v2/me") }

// BenchmarkListIssues: GET /api/v2/repos/alice/app/issues (30 of 1,000
// open issues) over loopback HTTP with keep-alive.
func BenchmarkListIssues(b *testing.B) { benchGet(b, "http://host/api/v2/repos/alice/app/issues") }
