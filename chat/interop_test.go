package chat

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/r3labs/sse/v2"
)

// TestStreamFromR3labsServer: forge reads a reply written by an SSE server
// nobody here wrote, r3labs/sse's hub, which frames events its own way: an
// "id:" line on each (its event log numbers them), "data:" before
// "event:", a "retry:" field, a comment as an event of its own, a
// multi-line payload split over "data:" lines (SplitData), and a stream
// that stays open after the last event, as a hub's streams do. Stream must
// give the deltas and usage and return at "done" without waiting for an
// end that never comes.
func TestStreamFromR3labsServer(t *testing.T) {
	t.Parallel()
	reply := []*sse.Event{
		{Event: []byte("delta"), Data: []byte(`"Hel"`)},
		{Comment: []byte("keep-alive")},
		{Event: []byte("delta"), Data: []byte(`"lo, \u00e9\ud83d\ude00"`), Retry: []byte("1000")},
		{Event: []byte("usage"), Data: []byte("{\"prompt_tokens\": 3,\n\"completion_tokens\": 4,\n\"total_tokens\": 7}")},
		{Event: []byte("done"), Data: []byte(`{"finish_reason":"stop"}`)},
	}
	unsubscribed := make(chan struct{})
	var hub *sse.Server
	// Events are published once the client is subscribed: the hub replays
	// its log to late subscribers, but not comments.
	hub = sse.NewWithCallback(func(id string, _ *sse.Subscriber) {
		for _, ev := range reply {
			hub.Publish(id, ev)
		}
	}, func(string, *sse.Subscriber) { close(unsubscribed) })
	hub.SplitData = true
	hub.CreateStream("reply")
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.URL.RawQuery = "stream=reply" // the hub names its streams in the query
		hub.ServeHTTP(w, r)
	}))
	defer hub.Close()
	defer ts.Close()

	var deltas []string
	u, err := New(ts.URL, "agk_test", nil, "").Stream(context.Background(), Request{Message: "hi"},
		func(s string) { deltas = append(deltas, s) })
	if err != nil || strings.Join(deltas, "|") != "Hel|lo, é😀" || u != (Usage{3, 4, 7, "stop"}) {
		t.Fatalf("deltas %q, usage %+v, error %v", deltas, u, err)
	}
	// Closing the body at "done" is what ends the hub's side.
	<-unsubscribed
}
