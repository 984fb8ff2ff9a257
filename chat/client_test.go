package chat_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/forgehq/forge/chat"
	"github.com/forgehq/forge/refserver"
	"github.com/forgehq/forge/refserver/refservertest"
)

// server starts a reference server on loopback and returns it with a
// client holding its agent key.
func server(t *testing.T) (*refserver.Server, *chat.Client) {
	t.Helper()
	srv := refservertest.Start(t)
	return srv, chat.New(srv.AgentURL(), srv.AgentKey(), nil, "forge-test")
}

func TestSendAndStreamAgree(t *testing.T) {
	t.Parallel()
	_, c := server(t)
	ctx := context.Background()
	req := chat.Request{Message: "How do releases work?"}
	reply, err := c.Send(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if reply.Model != "ref-1" || reply.FinishReason != "stop" || !strings.Contains(reply.Reply, "How do releases work?") {
		t.Errorf("reply %+v", reply)
	}
	if u := reply.Usage; u.TotalTokens != u.PromptTokens+u.CompletionTokens || u.CompletionTokens == 0 {
		t.Errorf("usage %+v", u)
	}
	if !bytes.Contains(reply.Raw, []byte(`"finish_reason"`)) {
		t.Errorf("raw %s", reply.Raw)
	}
	var got strings.Builder
	deltas := 0
	u, err := c.Stream(ctx, req, func(s string) { got.WriteString(s); deltas++ })
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != reply.Reply || u != reply.Usage || deltas < 10 {
		t.Errorf("stream gave %q in %d deltas, %+v; want %q, %+v", got.String(), deltas, u, reply.Reply, reply.Usage)
	}
	usage, err := c.Usage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if usage.UsedTokens != 2*reply.Usage.TotalTokens || usage.Tier != "pro" || usage.Remaining != usage.QuotaTokens-usage.UsedTokens {
		t.Errorf("usage %+v after two turns of %d", usage, reply.Usage.TotalTokens)
	}
	if r, ok := usage.Resets(); !ok || !r.After(time.Now()) {
		t.Errorf("resets %q", usage.PeriodResets)
	}
	names, def, err := c.Models(ctx)
	if err != nil || def != "ref-1" || strings.Join(names, ",") != "ref-1,ref-1-mini" {
		t.Errorf("models %v %q %v", names, def, err)
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	srv, c := server(t)
	ctx := context.Background()

	bad := chat.New(srv.AgentURL()+"/api/v1/", "agk_wrongwrongwrong", nil, "")
	_, err := bad.Stream(ctx, chat.Request{Message: "hi"}, func(string) { t.Error("delta from a refused request") })
	var he *chat.Error
	if !errors.As(err, &he) || he.HTTPStatus() != 401 || !strings.Contains(err.Error(), "invalid API key") {
		t.Errorf("bad key: %v", err)
	}

	_, err = c.Send(ctx, chat.Request{Message: "hi", Model: "nope"})
	if !errors.As(err, &he) || he.StatusCode != 400 || !strings.Contains(err.Error(), "ref-1, ref-1-mini") {
		t.Errorf("bad model: %v", err)
	}

	srv.Agent().SetQuota(srv.AgentKey(), 0)
	_, err = c.Stream(ctx, chat.Request{Message: "hi"}, func(string) {})
	if !errors.As(err, &he) || he.StatusCode != 429 || !strings.Contains(err.Error(), "resets at") || he.RetryAfter <= 0 {
		t.Errorf("quota: %v", err)
	}

	// An empty message is refused before anything is sent: this client
	// points at a port nobody listens on.
	offline := chat.New("http://127.0.0.1:1", "agk_x", nil, "")
	for _, m := range []string{"", "  \n\t"} {
		if _, err := offline.Stream(ctx, chat.Request{Message: m}, func(string) {}); !errors.Is(err, chat.ErrEmptyMessage) {
			t.Errorf("empty message %q: %v", m, err)
		}
		if _, err := offline.Send(ctx, chat.Request{Message: m}); !errors.Is(err, chat.ErrEmptyMessage) {
			t.Errorf("empty message %q: %v", m, err)
		}
	}
	if _, err := offline.Usage(ctx); err == nil || !strings.Contains(err.Error(), "agent API at http://127.0.0.1:1") || !strings.Contains(err.Error(), "refused") {
		t.Errorf("offline: %v", err)
	}
}

// TestErrorBodies: a non-2xx that is not {"error": string} still gives a
// one-line message.
func TestErrorBodies(t *testing.T) {
	t.Parallel()
	bodies := map[string]string{
		`{"error": {"message": "nested"}}`: "nested",
		"<html><body>Bad gateway</body>":   "Bad Gateway (HTTP 502)",
		"upstream timed out":               "Bad Gateway: upstream timed out (HTTP 502)",
	}
	for body, want := range bodies {
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadGateway)
			io.WriteString(w, body)
		}))
		_, err := chat.New(ts.URL, "agk_x", nil, "").Send(context.Background(), chat.Request{Message: "hi"})
		ts.Close()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", body, err, want)
		}
	}
}

// TestCancelSendsOnePOST: canceling a slow stream returns at once, and the
// message was POSTed exactly once — no retry, no reconnect.
func TestCancelSendsOnePOST(t *testing.T) {
	t.Parallel()
	var posts atomic.Int32
	release := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		posts.Add(1)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: delta\ndata: \"first\"\n\n")
		w.(http.Flusher).Flush()
		select { // then go silent until the client hangs up
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer ts.Close()
	defer close(release)
	ctx, cancel := context.WithCancel(context.Background())
	c := chat.New(ts.URL, "agk_x", nil, "")
	start := time.Now()
	var got []string
	_, err := c.Stream(ctx, chat.Request{Message: "hi"}, func(s string) { got = append(got, s); cancel() })
	if !errors.Is(err, context.Canceled) || len(got) != 1 {
		t.Fatalf("%q %v", got, err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("cancel took %v", d)
	}
	if n := posts.Load(); n != 1 {
		t.Errorf("%d POSTs, want 1", n)
	}

	// The same against the reference server, slowed down: one POST, and
	// only what was sent is billed.
	srv, _ := server(t)
	srv.Agent().SetChunkDelay(10 * time.Millisecond)
	var chats atomic.Int32
	counted := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == "POST" {
			chats.Add(1)
		}
		srv.Handler().ServeHTTP(w, r)
	}))
	defer counted.Close()
	c = chat.New(counted.URL, srv.AgentKey(), nil, "")
	ctx, cancel = context.WithCancel(context.Background())
	n := 0
	_, err = c.Stream(ctx, chat.Request{Message: "hi"}, func(string) {
		if n++; n == 3 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || chats.Load() != 1 {
		t.Errorf("refserver: %v, %d POSTs", err, chats.Load())
	}
}

func TestJSONInsteadOfStream(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"reply": "whole", "usage": {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}}`)
	}))
	defer ts.Close()
	var got []string
	u, err := chat.New(ts.URL, "agk_x", nil, "").Stream(context.Background(), chat.Request{Message: "hi"}, func(s string) { got = append(got, s) })
	if err != nil || len(got) != 1 || got[0] != "whole" || u.TotalTokens != 3 {
		t.Errorf("%q %+v %v", got, u, err)
	}
}

func TestSession(t *testing.T) {
	t.Parallel()
	srv, c := server(t)
	ctx := context.Background()
	s := &chat.Session{Client: c}
	var out strings.Builder
	first, err := s.Turn(ctx, "What is a tag?", func(d string) { out.WriteString(d) })
	if err != nil || len(s.History) != 2 || s.History[1].Content != out.String() {
		t.Fatalf("turn 1: %v, history %+v", err, s.History)
	}
	out.Reset()
	second, err := s.Turn(ctx, "And a branch?", func(d string) { out.WriteString(d) })
	if err != nil || !strings.Contains(out.String(), "turn 2") || !strings.Contains(out.String(), "began with *What is a tag?*") {
		t.Fatalf("turn 2 did not send the history: %v %q", err, out.String())
	}
	if second.PromptTokens <= first.TotalTokens {
		t.Errorf("prompt %d did not grow past the first turn's %d", second.PromptTokens, first.TotalTokens)
	}

	run := func(line string) (string, error) {
		var b strings.Builder
		err := s.Command(ctx, line, &b)
		return b.String(), err
	}
	if got, err := run("/model"); err != nil || got != "Model: ref-1 (the service's default)\nAvailable: ref-1, ref-1-mini\n" {
		t.Errorf("/model: %q %v", got, err)
	}
	if got, err := run("/model ref-1-mini"); err != nil || got != "Switched to model ref-1-mini.\n" || s.Model != "ref-1-mini" {
		t.Errorf("/model ref-1-mini: %q %v", got, err)
	}
	if _, err := run("/model gpt-9"); err == nil || err.Error() != `unknown model "gpt-9"; available: ref-1, ref-1-mini` || s.Model != "ref-1-mini" {
		t.Errorf("/model gpt-9: %v", err)
	}
	out.Reset()
	s.Turn(ctx, "Short please", func(d string) { out.WriteString(d) })
	if !strings.Contains(out.String(), "(turn 3)") {
		t.Errorf("ref-1-mini reply %q", out.String())
	}
	got, err := run("/usage")
	u, _ := srv.Agent().Usage(srv.AgentKey())
	if err != nil || !strings.HasPrefix(got, chat.Thousands(u.UsedTokens)+"/1,000,000 tokens used (tier pro), ") || !strings.Contains(got, "resets "+u.PeriodResets.Format("2006-01-02 15:04 UTC")) {
		t.Errorf("/usage: %q %v", got, err)
	}
	if got, err := run("/reset"); err != nil || got != "Conversation reset (6 messages forgotten).\n" || len(s.History) != 0 {
		t.Errorf("/reset: %q %v", got, err)
	}
	if got, err := run("/help"); err != nil || !strings.Contains(got, "/model [NAME]") || !strings.Contains(got, "/exit") {
		t.Errorf("/help: %q %v", got, err)
	}
	if _, err := run("/exit"); !errors.Is(err, chat.ErrExit) {
		t.Errorf("/exit: %v", err)
	}
	var unknown *chat.UnknownCommandError
	if _, err := run("/frobnicate now"); !errors.As(err, &unknown) || !strings.Contains(err.Error(), "unknown command /frobnicate; commands: /help, /model, /usage, /with, /context, /reset, /exit") {
		t.Errorf("/frobnicate: %v", err)
	}
	if !chat.IsCommand(" /usage") || chat.IsCommand("//etc") || chat.IsCommand("/") || chat.IsCommand("hi /x") || chat.Unescape("//etc/hosts?") != "/etc/hosts?" {
		t.Error("IsCommand/Unescape")
	}
}

func TestSessionInterrupted(t *testing.T) {
	t.Parallel()
	srv, c := server(t)
	srv.Agent().SetChunkDelay(5 * time.Millisecond)
	s := &chat.Session{Client: c}
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	_, err := s.Turn(ctx, "hello", func(string) {
		if n++; n == 4 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || len(s.History) != 2 || !strings.HasSuffix(s.History[1].Content, chat.InterruptedMark) {
		t.Fatalf("%v %+v", err, s.History)
	}
	// A turn that fails otherwise leaves the history alone.
	srv.Agent().SetQuota(srv.AgentKey(), 0)
	if _, err := s.Turn(context.Background(), "again", func(string) {}); err == nil || len(s.History) != 2 {
		t.Errorf("%v %d", err, len(s.History))
	}
}

func TestConversationFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "conv.json")
	in := &chat.Conversation{Model: "ref-1-mini", History: []chat.Message{{"user", "hi"}, {"assistant", "hello"}}}
	if err := chat.SaveConversation(path, in); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	if st.Mode().Perm() != 0o600 {
		t.Errorf("mode %o", st.Mode().Perm())
	}
	out, err := chat.LoadConversation(path)
	if err != nil || out.Model != "ref-1-mini" || len(out.History) != 2 || out.History[1] != in.History[1] {
		t.Errorf("%+v %v", out, err)
	}
	for body, n := range map[string]int{`[{"role":"user","content":"a"}]`: 1, `{"messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"}]}`: 2, ``: 0} {
		os.WriteFile(path, []byte(body), 0o600)
		if c, err := chat.LoadConversation(path); err != nil || len(c.History) != n {
			t.Errorf("%s: %+v %v", body, c, err)
		}
	}
	os.WriteFile(path, []byte(`[{"role":"system","content":"a"}]`), 0o600)
	if _, err := chat.LoadConversation(path); err == nil || !strings.Contains(err.Error(), `message 1 has role "system"`) {
		t.Errorf("bad role: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestFormatUsage(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 13, 30, 0, 0, time.UTC)
	u := &chat.AgentUsage{Tier: "free", UsedTokens: 1234, QuotaTokens: 25000, Remaining: 23766, PeriodResets: "2026-12-01T00:00:00Z"}
	if got := chat.FormatUsage(u, now); got != "1,234/25,000 tokens used (tier free), 23,766 remaining, resets 2026-12-01 00:00 UTC (in 8d 10h)" {
		t.Errorf("%q", got)
	}
	if got := chat.Thousands(-1234567); got != "-1,234,567" {
		t.Errorf("%q", got)
	}
}

// A server that redirects to another port of the same host does not get
// the key forwarded: the reference server behind the redirect sees a
// request without it and answers 401. (net/http alone forwards it, since
// it compares host names, not ports.)
func TestRedirectToAnotherOriginDropsKey(t *testing.T) {
	t.Parallel()
	srv, _ := server(t)
	var sawKey atomic.Bool
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sawKey.Store(r.Header.Get("Authorization") != "")
		http.Redirect(w, r, srv.AgentURL()+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer front.Close()
	c := chat.New(front.URL, srv.AgentKey(), nil, "forge-test")
	_, err := c.Usage(context.Background())
	var ae *chat.Error
	if !errors.As(err, &ae) || ae.StatusCode != http.StatusUnauthorized {
		t.Fatalf("usage through a redirect to another port: err %v, want the agent's 401 (key not forwarded)", err)
	}
	if !sawKey.Load() {
		t.Error("the first origin did not get the key")
	}
	// The same request to the reference server itself is authorised.
	if _, err := chat.New(srv.AgentURL(), srv.AgentKey(), nil, "forge-test").Usage(context.Background()); err != nil {
		t.Fatal(err)
	}
}
