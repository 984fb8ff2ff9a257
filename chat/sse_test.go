package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"
)

// tricky is an event stream that uses what the SSE specification allows:
// a byte order mark, comments, CRLF, CR and LF line endings (mixed, and a
// blank line written as LF then CR), no space after the colon, multi-line
// data, an unknown event, and escapes in JSON strings.
const tricky = "\xEF\xBB\xBF: a comment to start\r\n" +
	"event: delta\r\ndata: \"Hel\"\r\n\r\n" +
	"event: delta\rdata: \"lo, \\u00e9\\ud83d\\ude00\"\r\r" +
	"event:delta\ndata:\"\\n\\\"quoted\\\"\"\n\n" +
	": keep-alive\n\n" +
	"event: ping\ndata: not JSON at all\n\n" +
	"data: an unnamed message event\n\n" +
	"event: delta\ndata: \"two\ndata: lines\"\n\r" +
	"event: delta\r\nid: 7\r\nretry: 100\r\ndata: \" \\/ end\"\r\n\n" +
	"event: usage\ndata: {\"prompt_tokens\": 3,\ndata:  \"completion_tokens\": 4,\r\ndata: \"total_tokens\": 7}\n\n" +
	"event: done\ndata: {\"finish_reason\":\"stop\"}\n\n"

var trickyDeltas = []string{"Hel", "lo, é😀", "\n\"quoted\"", "two\nlines", " / end"}

func wantTricky(t *testing.T, deltas []string, u Usage, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("error %v", err)
	}
	if strings.Join(deltas, "|") != strings.Join(trickyDeltas, "|") {
		t.Fatalf("deltas %q\nwant   %q", deltas, trickyDeltas)
	}
	if u != (Usage{3, 4, 7, "stop"}) {
		t.Fatalf("usage %+v", u)
	}
}

func collect(ctx context.Context, r io.Reader) ([]string, Usage, error) {
	var deltas []string
	u, err := readStream(ctx, r, func(s string) { deltas = append(deltas, s) })
	return deltas, u, err
}

// TestReadStreamSplits cuts the stream into two reads at every byte
// position, and also reads it one byte at a time.
func TestReadStreamSplits(t *testing.T) {
	t.Parallel()
	for p := 0; p <= len(tricky); p++ {
		r := io.MultiReader(strings.NewReader(tricky[:p]), strings.NewReader(tricky[p:]))
		deltas, u, err := collect(context.Background(), r)
		if err != nil || len(deltas) != len(trickyDeltas) {
			t.Fatalf("split at %d (%q|%q): %q %v", p, tricky[max(p-5, 0):p], tricky[p:min(p+5, len(tricky))], deltas, err)
		}
		wantTricky(t, deltas, u, err)
	}
	for _, r := range []io.Reader{iotest.OneByteReader(strings.NewReader(tricky)), iotest.DataErrReader(strings.NewReader(tricky))} {
		deltas, u, err := collect(context.Background(), r)
		wantTricky(t, deltas, u, err)
	}
}

// splitStream serves body as an event stream in two writes on loopback,
// cut at the position set with at, and gives the client the transport
// that proves the cut: the server writes the rest only once the client's
// response body has handed over every byte before it. So the reader sees
// the stream cut there, whatever TCP and net/http would make of two quick
// writes.
type splitStream struct {
	t    *testing.T
	body string
	base http.RoundTripper

	mu   sync.Mutex
	cut  int
	read chan struct{} // closed once the client has read body[:cut]
}

func newSplitStream(t *testing.T, body string) (*splitStream, *Client) {
	s := &splitStream{t: t, body: body, base: http.DefaultTransport.(*http.Transport).Clone()}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, New(ts.URL, "agk_test", &http.Client{Transport: s}, "")
}

// at sets where the next response is cut.
func (s *splitStream) at(p int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cut, s.read = p, make(chan struct{})
}

func (s *splitStream) state() (int, chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cut, s.read
}

// ServeHTTP writes the part before the cut, and the rest once the client
// has read it.
func (s *splitStream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p, read := s.state()
	w.Header().Set("Content-Type", "text/event-stream")
	io.WriteString(w, s.body[:p])
	w.(http.Flusher).Flush()
	select {
	case <-read:
	case <-time.After(10 * time.Second):
		s.t.Errorf("cut at %d: the client never read the first %d bytes", p, p)
		return
	}
	io.WriteString(w, s.body[p:])
}

// RoundTrip counts the bytes the response body hands over.
func (s *splitStream) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := s.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	p, read := s.state()
	res.Body = &handOver{ReadCloser: res.Body, left: p, read: read}
	if p == 0 {
		close(read)
	}
	return res, nil
}

// handOver closes read once left bytes have been read through it.
type handOver struct {
	io.ReadCloser
	left int
	read chan struct{}
}

func (h *handOver) Read(b []byte) (int, error) {
	n, err := h.ReadCloser.Read(b)
	if h.left > 0 {
		if h.left -= n; h.left <= 0 {
			close(h.read)
		}
	}
	return n, err
}

// TestStreamSplitsOverTCP sends the stream over loopback, cut into two
// writes at every byte position.
func TestStreamSplitsOverTCP(t *testing.T) {
	t.Parallel()
	s, c := newSplitStream(t, tricky)
	for p := 0; p <= len(tricky); p++ {
		s.at(p)
		var deltas []string
		u, err := c.Stream(context.Background(), Request{Message: "hi"}, func(s string) { deltas = append(deltas, s) })
		if err != nil || len(deltas) != len(trickyDeltas) {
			t.Fatalf("split at %d: %q %v", p, deltas, err)
		}
		wantTricky(t, deltas, u, err)
	}
}

// TestStreamLargeEvent: a 1 MiB delta, far past the 32 KiB the reader starts with.
func TestStreamLargeEvent(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("0123456789abcdé\"\n", 1<<16) // > 1 MiB once escaped
	js, _ := json.Marshal(big)
	body := "event: delta\r\ndata: " + string(js) + "\r\n\r\nevent: done\r\ndata: {}\r\n\r\n"
	if len(js) < 1<<20 {
		t.Fatalf("event only %d bytes", len(js))
	}
	s, c := newSplitStream(t, body)
	s.at(len(body) / 3)
	var got []string
	if _, err := c.Stream(context.Background(), Request{Message: "hi"}, func(s string) { got = append(got, s) }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != big {
		t.Fatalf("got %d deltas, first %d bytes, want one of %d", len(got), len(got[0]), len(big))
	}

	// Past the maximum it is an error that says so, not a hang or a panic.
	huge := "event: delta\ndata: \"" + strings.Repeat("x", 2<<20) + "\"\n\n"
	_, err := readEvents(context.Background(), newEventReaderSize(strings.NewReader(huge), 1<<20), func(string) {})
	if err == nil || err.Error() != "agent API: an event is larger than 1 MiB" {
		t.Fatalf("oversized event: %v", err)
	}
	// So is one over the maximum in many data lines.
	lines := "event: delta\n" + strings.Repeat("data: \""+strings.Repeat("x", 1000)+"\"\n", 2<<10) + "\n"
	_, err = readEvents(context.Background(), newEventReaderSize(strings.NewReader(lines), 1<<20), func(string) {})
	if err == nil || err.Error() != "agent API: an event is larger than 1 MiB" {
		t.Fatalf("oversized event in lines: %v", err)
	}
	// Comments are not kept, so any number of them is fine.
	comments := strings.Repeat(": keep-alive\n", 200<<10) + "event: delta\ndata: \"ok\"\n\nevent: done\ndata: {}\n\n"
	var deltas []string
	_, err = readEvents(context.Background(), newEventReaderSize(strings.NewReader(comments), 1<<20), func(s string) { deltas = append(deltas, s) })
	if err != nil || len(deltas) != 1 || deltas[0] != "ok" {
		t.Fatalf("2.4 MiB of comments, then an event: %q %v", deltas, err)
	}
}

func TestReadStreamCut(t *testing.T) {
	t.Parallel()
	const head = "event: delta\ndata: \"one \"\n\nevent: delta\ndata: \"two \"\n\n"
	cases := map[string]string{
		"between events":     head,
		"inside an event":    head + "event: delta\ndata: \"thr",
		"before blank line":  head + "event: delta\ndata: \"three\"\n",
		"inside CRLF ending": head + "event: delta\r\ndata: \"three\"\r",
	}
	for name, body := range cases {
		deltas, _, err := collect(context.Background(), strings.NewReader(body))
		if !errors.Is(err, ErrIncomplete) || strings.Join(deltas, "") != "one two " {
			t.Errorf("%s: deltas %q, error %v; want the two complete ones and ErrIncomplete", name, deltas, err)
		}
	}
	// A connection that breaks is ErrIncomplete too, with the cause.
	r := io.MultiReader(strings.NewReader(head+"event: delta\ndata: \"x\""), iotest.ErrReader(io.ErrUnexpectedEOF))
	deltas, _, err := collect(context.Background(), r)
	if !errors.Is(err, ErrIncomplete) || !strings.Contains(err.Error(), "unexpected EOF") || len(deltas) != 2 {
		t.Errorf("broken connection: %q %v", deltas, err)
	}
	// usage without done: the reply is whole.
	deltas, u, err := collect(context.Background(), strings.NewReader(head+"event: usage\ndata: {\"total_tokens\": 9}\n\n"))
	if err != nil || u.TotalTokens != 9 || len(deltas) != 2 {
		t.Errorf("usage without done: %q %+v %v", deltas, u, err)
	}
}

func TestReadStreamMalformed(t *testing.T) {
	t.Parallel()
	cases := []struct{ body, event string }{
		{"event: delta\ndata: {\"text\": \"hi\"}\n\n", "delta"},
		{"event: delta\ndata: \"unterminated\n\n", "delta"},
		{"event: delta\ndata: \"bad \\x escape\"\n\n", "delta"},
		{"event: delta\ndata: \"a\" \"b\"\n\n", "delta"},
		{"event: delta\n\n", "delta"},
		{"event: usage\ndata: {\"total_tokens\": \"many\"}\n\n", "usage"},
	}
	for _, c := range cases {
		deltas, _, err := collect(context.Background(), strings.NewReader("event: delta\ndata: \"ok\"\n\n"+c.body))
		var se *StreamError
		if !errors.As(err, &se) || se.Event != c.event || !strings.Contains(err.Error(), fmt.Sprintf("malformed data in the %q event", c.event)) {
			t.Errorf("%q: %v", c.body, err)
		}
		if len(deltas) != 1 || deltas[0] != "ok" {
			t.Errorf("%q: deltas before the bad event %q", c.body, deltas)
		}
	}
	_, _, err := collect(context.Background(), strings.NewReader("event: error\ndata: {\"error\": \"model overloaded\"}\n\n"))
	if err == nil || !strings.Contains(err.Error(), "model overloaded") {
		t.Errorf("error event: %v", err)
	}
}

// TestReadStreamCancel: a canceled context stops reading at once, even
// while the server is silent.
func TestReadStreamCancel(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		io.WriteString(pw, "event: delta\ndata: \"one\"\n\n")
	}()
	done := make(chan error, 1)
	go func() {
		_, err := readStream(ctx, readerCtx{ctx, pr}, func(string) { cancel() })
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("error %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("readStream did not return after cancel")
	}
}

// readerCtx fails reads once ctx ends, as an HTTP response body does.
type readerCtx struct {
	ctx context.Context
	r   *io.PipeReader
}

func (r readerCtx) Read(p []byte) (int, error) {
	go func() { <-r.ctx.Done(); r.r.CloseWithError(r.ctx.Err()) }()
	return r.r.Read(p)
}

func TestAppendJSONString(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "plain", "é😀 日本", "\"\\/\b\f\n\r\t", "\x00\x1f", "<&>", "\u2028"} {
		js, _ := json.Marshal(s)
		got, err := appendJSONString(nil, js)
		if err != nil || string(got) != s {
			t.Errorf("%s: %q %v", js, got, err)
		}
	}
	cases := map[string]string{
		`  "a"  `:          "a",
		`"\u00E9\u00e9"`:   "éé",
		`"\ud83d"`:         "\uFFFD",
		`"\ud83dx"`:        "\uFFFDx",
		`"\ud83d\u0041"`:   "\uFFFDA",
		"\"raw\nnewline\"": "raw\nnewline",
	}
	for in, want := range cases {
		got, err := appendJSONString(nil, []byte(in))
		if err != nil || string(got) != want {
			t.Errorf("%s: %q %v, want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{``, `x`, `"abc`, `"\`, `"\q"`, `"\u12"`, `"\u12g4"`, `"a"b`, `123`, `null`} {
		if _, err := appendJSONString(nil, []byte(bad)); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// FuzzAppendJSONString checks the decoder against encoding/json on every
// string encoding/json accepts.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{`"a"`, `"\u00e9"`, `"\ud83d\ude00"`, `"\\\""`, `"\ud800\udc00"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want string
		if json.Unmarshal(data, &want) != nil || !bytes.HasPrefix(bytes.TrimSpace(data), []byte(`"`)) {
			return
		}
		got, err := appendJSONString(nil, data)
		if err != nil {
			t.Fatalf("%q: %v", data, err)
		}
		if !bytes.Equal(got, []byte(want)) && !strings.ContainsRune(want, '\uFFFD') {
			t.Fatalf("%q: got %q want %q", data, got, want)
		}
	})
}

// TestReadStreamCRDispatchesAtOnce: a blank line written as CRLF is
// complete at its CR, so the event is delivered without waiting for the
// LF, which a server may send only with its next event.
func TestReadStreamCRDispatchesAtOnce(t *testing.T) {
	t.Parallel()
	for _, body := range []string{"event: delta\r\ndata: \"x\"\r\n\r", "event: delta\rdata: \"x\"\r\r"} {
		pr, pw := io.Pipe()
		got := make(chan string, 1)
		go readStream(context.Background(), pr, func(s string) { got <- s })
		go io.WriteString(pw, body)
		select {
		case s := <-got:
			if s != "x" {
				t.Errorf("%q: delta %q", body, s)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("%q: no delta while the stream stays open", body)
		}
		pw.Close()
	}
}

// FuzzEventReader: however the bytes arrive, the same events come out, and
// the reader neither panics nor loops.
func FuzzEventReader(f *testing.F) {
	f.Add([]byte(tricky), uint16(7))
	f.Add([]byte("\xEF\xBB\xBFdata: a\r\n\r\ndata\r\rdata:b\n\r:c\nevent: x\n\n"), uint16(3))
	f.Fuzz(func(t *testing.T, data []byte, split uint16) {
		read := func(r io.Reader) (evs []string, err error) {
			er := newEventReaderSize(r, 1<<10)
			for {
				ev, err := er.next()
				if err != nil {
					return evs, err
				}
				evs = append(evs, fmt.Sprintf("%q:%q", ev.Name, ev.Data))
			}
		}
		whole, werr := read(bytes.NewReader(data))
		at := int(split) % (len(data) + 1)
		parts, perr := read(io.MultiReader(iotest.OneByteReader(bytes.NewReader(data[:at])), bytes.NewReader(data[at:])))
		if strings.Join(whole, "|") != strings.Join(parts, "|") || (werr == io.EOF) != (perr == io.EOF) {
			t.Fatalf("split at %d: %v %v\nwhole %q\nparts %q", at, werr, perr, whole, parts)
		}
	})
}

// TestEndlessStreamIsBounded: a stream whose reply never ends stops at
// MaxReply with ErrReplyTooLarge, after onDelta saw what arrived; the
// session keeps it.
func TestEndlessStreamIsBounded(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		chunk := "data: \"" + strings.Repeat("x", 64<<10) + "\"\n\n"
		for r.Context().Err() == nil {
			if _, err := io.WriteString(w, "event: delta\n"+chunk); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	s := &Session{Client: New(srv.URL, "agk_test0123456789", srv.Client(), "forge-test")}
	seen := 0
	_, err := s.Turn(context.Background(), "hello", func(d string) { seen += len(d) })
	if !errors.Is(err, ErrReplyTooLarge) {
		t.Fatalf("err = %v, want ErrReplyTooLarge", err)
	}
	if seen == 0 || seen > MaxReply {
		t.Errorf("onDelta saw %d bytes; want some, at most %d", seen, MaxReply)
	}
	if len(s.History) != 2 || len(s.History[1].Content) < seen {
		t.Errorf("the session did not keep the reply shown: %d messages", len(s.History))
	}
}
