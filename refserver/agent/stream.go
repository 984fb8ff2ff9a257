package agent

import (
	"encoding/json"
	"net/http"
	"time"
)

// handleStream sends the reply as Server-Sent Events, one token per delta
// event, each flushed as it is written. Every token is billed just before
// it is sent and refunded if sending fails, so a client that goes away pays
// only for what it was sent.
//
// The frames are written here, not by r3labs/sse's server, which is a
// publish/subscribe hub and does not fit one POST answered by one stream:
// its handler writes an "id:" line per event (inviting a Last-Event-ID
// reconnect, which here would be a new POST and a new bill), ignores write
// errors (so a token could not be refunded when sending fails), queues
// events between publisher and writer (billing ahead of sending), and
// ends a subscriber only when its stream is removed (then the handler's
// unsubscribe blocks for ever) or on an empty event that its replay log
// drops: each request would need its own stream, subscribe and
// unsubscribe callbacks, and a rewritten query naming the stream.
func (s *Service) handleStream(w http.ResponseWriter, r *http.Request, key string) {
	t := s.prepare(w, r, key)
	if t == nil {
		return
	}
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if rc.Flush() != nil {
		return
	}
	ctx := r.Context()
	delay := time.Duration(s.delay.Load())
	hold := s.hold.Load()
	var timer *time.Timer
	sent, finish := 0, "stop"
	buf := make([]byte, 0, 128)
	for i, tok := range t.reply {
		if hold != nil && i == hold.after {
			select {
			case <-hold.release:
			case <-ctx.Done():
				return
			}
		}
		if delay > 0 {
			if timer == nil {
				timer = time.NewTimer(delay)
				defer timer.Stop()
			} else {
				timer.Reset(delay)
			}
			select {
			case <-timer.C:
			case <-ctx.Done():
				return
			}
		}
		if ctx.Err() != nil {
			return
		}
		if s.chargeCompletion(key, 1) == 0 {
			finish = "quota"
			break
		}
		buf = append(append(append(buf[:0], "event: delta\ndata: "...), jsonString(tok)...), "\n\n"...)
		if _, err := w.Write(buf); err != nil || rc.Flush() != nil {
			s.refund(key, 1)
			return
		}
		sent++
	}
	usage, _ := json.Marshal(usageObject(t.prompt, sent))
	done, _ := json.Marshal(map[string]string{"finish_reason": finish})
	buf = append(append(append(buf[:0], "event: usage\ndata: "...), usage...), "\n\n"...)
	buf = append(append(append(buf, "event: done\ndata: "...), done...), "\n\n"...)
	w.Write(buf)
	rc.Flush()
}
