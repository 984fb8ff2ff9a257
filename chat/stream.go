package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"unicode/utf8"
)

// ErrIncomplete is a stream that ended before its "done" event: the reply
// is cut short.
var ErrIncomplete = errors.New("agent API: the stream ended before the reply was complete")

// MaxReply bounds the text of one reply (the sum of its deltas): a stream
// that never ends must not take all the memory forge holds the reply in.
// The service's replies are a few kilobytes; 8 MiB is a book.
const MaxReply = 8 << 20

// ErrReplyTooLarge is a reply that passed MaxReply: forge stopped reading
// it. What arrived was shown and is kept.
var ErrReplyTooLarge = fmt.Errorf("agent API: the reply passed %d MiB without ending, so forge stopped reading it; what arrived is kept", MaxReply>>20)

// StreamError is an event whose data is not what its kind promises.
type StreamError struct {
	Event string // the event's name, e.g. "delta"
	Data  string // the start of its data, for the message
	Err   error
}

func (e *StreamError) Error() string {
	return fmt.Sprintf("agent API: malformed data in the %q event (%v): %q", e.Event, e.Err, e.Data)
}

func (e *StreamError) Unwrap() error { return e.Err }

// Stream sends a message and reads the reply as Server-Sent Events (POST
// /api/v1/chat/stream), calling onDelta with each chunk of text as it
// arrives. It returns the reply's usage once the stream is done.
//
// The POST is sent once and never retried or reconnected. Canceling ctx
// stops reading at once and returns ctx's error. A stream that ends early
// returns ErrIncomplete, a malformed event a *StreamError, a status other
// than 2xx an *Error, a reply over MaxReply ErrReplyTooLarge — in each
// case after onDelta has seen every chunk that did arrive (up to the
// limit). A service that answers with a JSON reply instead of a
// stream is accepted: onDelta gets the whole reply at once. onDelta runs
// on Stream's goroutine, one chunk at a time, and never after Stream
// returns.
func (c *Client) Stream(ctx context.Context, r Request, onDelta func(string)) (Usage, error) {
	if err := r.check(); err != nil {
		return Usage{}, err
	}
	req, err := c.newRequest(ctx, http.MethodPost, "/chat/stream", r.body())
	if err != nil {
		return Usage{}, err
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := c.do(req)
	if err != nil {
		return Usage{}, err
	}
	defer resp.Body.Close()
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == "application/json" {
		var reply Reply
		if err := decodeBody(ctx, resp, &reply); err != nil {
			return Usage{}, err
		}
		onDelta(reply.Reply)
		reply.Usage.FinishReason = reply.FinishReason
		return reply.Usage, nil
	}
	// After "done" the body is closed without reading on: a server may
	// keep an event stream open, and waiting for its end would hang.
	return readStream(ctx, resp.Body, onDelta)
}

// readStream reads delta, usage and done events until done. Other events
// are ignored, except "error", which ends the stream with its message.
func readStream(ctx context.Context, body io.Reader, onDelta func(string)) (Usage, error) {
	return readEvents(ctx, newEventReader(body), onDelta)
}

func readEvents(ctx context.Context, er *eventReader, onDelta func(string)) (Usage, error) {
	var (
		usage    Usage
		gotUsage bool
		text     []byte
		total    int // bytes of reply text so far
	)
	done := ctx.Done()
	for {
		select {
		case <-done:
			return usage, ctx.Err()
		default:
		}
		ev, err := er.next()
		if err != nil {
			switch {
			case ctx.Err() != nil:
				return usage, ctx.Err()
			case err == io.EOF && gotUsage:
				return usage, nil // "done" missing, but the reply is whole
			case err == io.EOF:
				return usage, ErrIncomplete
			case errors.As(err, new(errEventTooLarge)):
				return usage, fmt.Errorf("agent API: %w", err)
			}
			return usage, fmt.Errorf("%w: %v", ErrIncomplete, err)
		}
		switch string(ev.Name) {
		case "delta":
			if text, err = appendJSONString(text[:0], ev.Data); err != nil {
				return usage, streamError("delta", ev.Data, err)
			}
			if total += len(text); total > MaxReply {
				return usage, ErrReplyTooLarge
			}
			onDelta(string(text))
		case "usage":
			if err := json.Unmarshal(ev.Data, &usage); err != nil {
				return usage, streamError("usage", ev.Data, err)
			}
			gotUsage = true
		case "done":
			var done struct {
				FinishReason string `json:"finish_reason"`
			}
			if json.Unmarshal(ev.Data, &done) == nil {
				usage.FinishReason = done.FinishReason
			}
			return usage, nil
		case "error":
			var e struct {
				Error string `json:"error"`
			}
			if json.Unmarshal(ev.Data, &e) != nil || e.Error == "" {
				e.Error = string(ev.Data)
			}
			return usage, fmt.Errorf("agent API: the service ended the reply with an error: %s", e.Error)
		}
	}
}

func streamError(name string, data []byte, err error) *StreamError {
	const max = 60
	if len(data) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(data[cut]) {
			cut--
		}
		data = append(data[:cut:cut], "…"...)
	}
	return &StreamError{Event: name, Data: string(data), Err: err}
}
