package serve

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
	"github.com/forgehq/forge/internal/iostreams"
)

// --rate-limit 0.01 (one request per 100 s, so no timing window): a
// token's second request is 429 with Retry-After; the flag is off (0) by default; negative is a usage error.
func TestServeRateLimit(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	f := &cmdcore.Globals{IOStreams: ios, Getenv: func(string) string { return "" }}
	if fl := NewCmd(f).Flags().Lookup("rate-limit"); fl == nil || fl.DefValue != "0" {
		t.Fatalf("--rate-limit flag %+v, want default 0", fl)
	}
	var usage *cmdcore.UsageError
	if err := runServe(context.Background(), &Options{Deps: f.Deps(), Addr: "127.0.0.1:0", CITick: time.Second, RateLimit: -1}); !errors.As(err, &usage) {
		t.Errorf("--rate-limit -1: %v", err)
	}
	srv, stop := serving(t, &Options{Deps: f.Deps(), Addr: "127.0.0.1:0", AdminUser: "admin", CITick: time.Second, RateLimit: 0.01})
	defer stop()
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
