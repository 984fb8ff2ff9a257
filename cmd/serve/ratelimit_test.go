package serve

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/cmdutil"
	"github.com/forgehq/forge/internal/iostreams"
	"github.com/forgehq/forge/refserver"
)

// --rate-limit 0.01 (one request per 100 s, so no timing window): a
// token's second request is 429 with Retry-After; the flag is off (0) by default; negative is a usage error.
func TestServeRateLimit(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	f := cmdutil.New(ios, func(string) string { return "" })
	if fl := NewCmd(f).Flags().Lookup("rate-limit"); fl == nil || fl.DefValue != "0" {
		t.Fatalf("--rate-limit flag %+v, want default 0", fl)
	}
	var usage *cmdutil.UsageError
	if err := runServe(context.Background(), &Options{f: f, Addr: "127.0.0.1:0", CITick: time.Second, RateLimit: -1}); !errors.As(err, &usage) {
		t.Errorf("--rate-limit -1: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan *refserver.Server, 1)
	done := make(chan error, 1)
	go func() {
		done <- runServe(ctx, &Options{f: f, Addr: "127.0.0.1:0", AdminUser: "admin", CITick: time.Second, RateLimit: 0.01,
			ready: func(s *refserver.Server) { ready <- s }})
	}()
	var srv *refserver.Server
	select {
	case srv = <-ready:
	case err := <-done:
		t.Fatalf("serve ended early: %v", err)
	}
	defer func() { cancel(); <-done }()
	tok, err := srv.Token("admin")
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	retry := 0
	for i := 0; i < 2; i++ {
		req, _ := http.NewRequest("GET", srv.BaseURL()+"/me", nil)
		req.Header.Set("Authorization", "token "+tok)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		got = append(got, res.StatusCode)
		retry, _ = strconv.Atoi(res.Header.Get("Retry-After"))
	}
	if got[0] != 200 || got[1] != 429 || retry < 1 || retry > 100 {
		t.Errorf("two requests at --rate-limit 0.01: %v, Retry-After %d", got, retry)
	}
}
