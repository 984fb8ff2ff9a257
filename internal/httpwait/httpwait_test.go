package httpwait

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]time.Duration{"": Default, "45": 45 * time.Second, "0.5": 500 * time.Millisecond, "2m": 2 * time.Minute, "0": 0} {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"soon", "-1", "-2s"} {
		if _, err := Parse(in); err == nil || !strings.Contains(err.Error(), Var) {
			t.Errorf("Parse(%q) = %v", in, err)
		}
	}
}

func TestIsTimeout(t *testing.T) {
	hang := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-hang }))
	defer srv.Close()
	defer close(hang)
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.ResponseHeaderTimeout = 50 * time.Millisecond
	_, err := (&http.Client{Transport: tr}).Get(srv.URL)
	if !IsTimeout(err) {
		t.Errorf("IsTimeout(%v) = false", err)
	}
	if IsTimeout(context.Canceled) {
		t.Error("a cancellation counted as a timeout")
	}
	msg := (&Error{What: "POST http://127.0.0.1:1/api/v1/chat/stream", Wait: 2 * time.Second}).Error()
	if msg != "POST http://127.0.0.1:1/api/v1/chat/stream: no answer within 2s; the service is slow or stuck (FORGE_HTTP_TIMEOUT sets a longer wait)" {
		t.Errorf("sentence: %q", msg)
	}
}
